/**
 * jest runs tests as CommonJS; jose ships only ES modules. This transform lets a test load jose the way
 * Node loads it for the gateway: esbuild turns each of jose's files into CommonJS.
 */
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, { format: 'cjs', loader: 'js', sourcefile: filename, sourcemap: 'inline', target: 'node20' });
    return { code, map };
  },
};
