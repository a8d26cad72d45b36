import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeLoadError, locatesInFile } from '../../../src/project/describe-load-error';

/** A config that fails to load is described in one line, with the line of the file the error points at. */
describe('describeLoadError', () => {
  const folder = mkdtempSync(join(tmpdir(), 'docjoin-load-error-'));
  const file = join(folder, 'docjoin config.mjs');
  writeFileSync(file, `export default {\n  schema: 'schema',\n  server: { port: ${'1'.repeat(80)} }\n};\n`);
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const withStack = (message: string, stack: string) => Object.assign(new Error(message), { stack });

  it("quotes the line a parser's file:line:column names, without its message's further lines", () => {
    const parseError = new Error(`ParseError: Unexpected token, expected ","  \n ${file}:2:10`);
    expect(describeLoadError(parseError, file)).toBe("Unexpected token, expected \",\" (line 2: `schema: 'schema',`)");
    expect(locatesInFile(parseError, file)).toBe(true);
  });

  it("takes esbuild's reason from its second line", () => {
    const transformError = new Error(`Transform failed with 1 error:\n${file}:3:18: ERROR: Expected "}" but found "1"`);
    expect(describeLoadError(transformError, file)).toBe(`Expected "}" but found "1" (line 3: \`server: { port: ${'1'.repeat(43)}…\`)`);
  });

  it('finds the frame of the file in a stack, as a file URL too, and shortens a long line', () => {
    const thrown = withStack('port is not a number', `TypeError: port is not a number\n    at check (/elsewhere/x.js:1:1)\n    at ${pathToFileURL(file).href}:3:11`);
    expect(describeLoadError(thrown, file)).toBe(`port is not a number (line 3: \`server: { port: ${'1'.repeat(43)}…\`)`);
  });

  it('gives the message alone when the error does not point into the file, or past its end', () => {
    const unlocated = withStack("Unexpected token ';'", "SyntaxError: Unexpected token ';'\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)");
    expect(describeLoadError(unlocated, file)).toBe("Unexpected token ';'");
    expect(locatesInFile(unlocated, file)).toBe(false);
    expect(describeLoadError(withStack('elsewhere', `Error: elsewhere\n    at ${file}x:2:1`), file)).toBe('elsewhere');
    expect(describeLoadError(withStack('past the end', `Error: past the end\n    at ${file}:40:1`), file)).toBe('past the end (line 40)');
    expect(describeLoadError('a thrown string', file)).toBe('a thrown string');
  });

  it('says to install a package the config imports and the project lacks (docjoin itself, for defineConfig), not a missing file of its own', () => {
    // As Node words it for an ES module (ERR_MODULE_NOT_FOUND) and for require (MODULE_NOT_FOUND).
    const esm = Object.assign(new Error(`Cannot find package 'docjoin' imported from ${file}`), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(describeLoadError(esm, file)).toBe(`Cannot find package 'docjoin' imported from ${file}; install it in the project from a tarball packed from the docjoin repository (npm pack there, then npm install path/to/docjoin-<version>.tgz)`);
    const scoped = Object.assign(new Error(`Cannot find module '@acme/auth/jwt'\nRequire stack:\n- ${file}`), { code: 'MODULE_NOT_FOUND' });
    expect(describeLoadError(scoped, file)).toBe("Cannot find module '@acme/auth/jwt'; install it in the project (npm install @acme/auth)");
    for (const specifier of ['./resolvers.mjs', '/abs/x.mjs', '@/lib/x', '#internal', 'file:///x.mjs']) {
      const notAPackage = Object.assign(new Error(`Cannot find module '${specifier}' imported from ${file}`), { code: 'ERR_MODULE_NOT_FOUND' });
      expect(describeLoadError(notAPackage, file)).toBe(`Cannot find module '${specifier}' imported from ${file}`);
    }
  });
});
