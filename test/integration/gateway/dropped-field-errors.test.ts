import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * guardDroppedFieldErrors in a process of its own (jest listens for unhandled rejections itself): a
 * located GraphQLError rejected with no handler is counted and logged at most once a minute, and the
 * process goes on; any other rejection still ends the process as Node's default would; the guard's
 * release gives Node its default back; under another --unhandled-rejections mode it stands aside.
 */
const MODULE = join(__dirname, '../../../src/gateway/errors/dropped-field-errors.ts');

function run(body: string, nodeFlags: readonly string[] = []): { status: number | null; stdout: string; stderr: string } {
  const script = `
    const { GraphQLError } = require('graphql');
    const { guardDroppedFieldErrors } = require(${JSON.stringify(MODULE)});
    const logger = { warn: (fields, message) => console.log(JSON.stringify({ fields, message })) };
    const dropped = (code) => new GraphQLError('after: no Comment with id "0bff"', { path: ['posts', 0, 'comments'], extensions: { code } });
    ${body}
    setTimeout(() => console.log('still running'), 50);
  `;
  const result = spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '../../..'), env: { PATH: process.env.PATH ?? '' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it('counts field errors left unhandled, logs the first without its message, and keeps running', () => {
  const { status, stdout } = run(`
    guardDroppedFieldErrors(logger, { onDropped: () => console.log('counted') });
    Promise.reject(dropped('BAD_USER_INPUT'));
    Promise.reject(dropped('BAD_USER_INPUT'));
  `);
  expect(status).toBe(0);
  // The second comes within the minute: counted, and in the next line, but not logged on its own.
  expect(stdout.trim().split('\n')).toEqual([
    'counted',
    JSON.stringify({ fields: { dropped: 1, path: ['posts', 0, 'comments'], code: 'BAD_USER_INPUT' }, message: 'graphql-js left 1 field error(s) unhandled under nulls it had already answered (graphql/graphql-js#3528)' }),
    'counted',
    'still running',
  ]);
});

it.each([
  ['an error that is not a GraphQLError', `new Error('boom')`, 'Error: boom'],
  ['a GraphQLError without a path', `new GraphQLError('boom')`, 'GraphQLError: boom'],
  ['a reason that is not an Error', `'boom'`, `The promise rejected with the reason "'boom'"`],
])('still ends the process on %s, as Node would', (_what, reason, printed) => {
  const { status, stdout, stderr } = run(`
    guardDroppedFieldErrors(logger);
    Promise.reject(${reason});
  `);
  expect(status).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain(printed);
});

it('leaves the decision to the application when it listens too', () => {
  const { status, stdout } = run(`
    process.on('unhandledRejection', (reason) => console.log('application: ' + reason.message));
    guardDroppedFieldErrors(logger);
    Promise.reject(new Error('boom'));
  `);
  expect(status).toBe(0);
  expect(stdout).toBe('application: boom\nstill running\n');
});

it('installs one listener for two gateways, and two copies of the module, and gives Node its default back once all released it', () => {
  const { status, stdout } = run(`
    const releaseFirst = guardDroppedFieldErrors(logger);
    delete require.cache[require.resolve(${JSON.stringify(MODULE)})];
    const releaseSecond = require(${JSON.stringify(MODULE)}).guardDroppedFieldErrors(logger);
    console.log(process.listenerCount('unhandledRejection'));
    releaseFirst();
    console.log(process.listenerCount('unhandledRejection'));
    releaseSecond();
    console.log(process.listenerCount('unhandledRejection'));
    Promise.reject(dropped('BAD_USER_INPUT'));
  `);
  expect(status).toBe(1);
  expect(stdout).toBe('1\n1\n0\n');
});

it.each([
  ['warn', 0],
  ['none', 0],
])('stands aside under --unhandled-rejections=%s, which does not end the process', (mode, exitCode) => {
  const { status, stdout } = run(`
    const release = guardDroppedFieldErrors(logger);
    release();
    console.log(typeof release, process.listenerCount('unhandledRejection'));
    Promise.reject(new Error('boom'));
  `, [`--unhandled-rejections=${mode}`]);
  expect(status).toBe(exitCode);
  expect(stdout).toBe('function 0\nstill running\n');
});
