import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * guardDroppedFieldErrors in a process of its own (jest listens for unhandled rejections itself): a
 * located GraphQLError rejected with no handler is logged and the process goes on; any other rejection
 * still ends the process as Node's default would, and the guard's release gives Node its default back.
 */
const MODULE = join(__dirname, '../../../src/gateway/errors/dropped-field-errors.ts');

function run(body: string): { status: number | null; stdout: string; stderr: string } {
  const script = `
    const { GraphQLError } = require('graphql');
    const { guardDroppedFieldErrors } = require(${JSON.stringify(MODULE)});
    const logger = { warn: (fields, message) => console.log(JSON.stringify({ fields, message })) };
    ${body}
    setTimeout(() => console.log('still running'), 50);
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '../../..') });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

it('logs a field error left unhandled and keeps running', () => {
  const { status, stdout } = run(`
    guardDroppedFieldErrors(logger);
    Promise.reject(new GraphQLError('after: no Comment with id', { path: ['posts', 0, 'comments'], extensions: { code: 'BAD_USER_INPUT' } }));
  `);
  expect(status).toBe(0);
  expect(stdout.trim().split('\n')).toEqual([
    JSON.stringify({ fields: { path: ['posts', 0, 'comments'], code: 'BAD_USER_INPUT' }, message: 'graphql-js left a field error unhandled under a null it had already answered: after: no Comment with id' }),
    'still running',
  ]);
});

it.each([
  ['an error that is not a GraphQLError', `new Error('boom')`],
  ['a GraphQLError without a path', `new GraphQLError('boom')`],
])('still ends the process on %s', (_what, reason) => {
  const { status, stdout, stderr } = run(`
    guardDroppedFieldErrors(logger);
    Promise.reject(${reason});
  `);
  expect(status).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain('boom');
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

it('gives Node its default back once every gateway has released it', () => {
  const { status, stdout } = run(`
    const releaseFirst = guardDroppedFieldErrors(logger);
    const releaseSecond = guardDroppedFieldErrors(logger);
    releaseFirst();
    console.log(process.listenerCount('unhandledRejection'));
    releaseSecond();
    console.log(process.listenerCount('unhandledRejection'));
    Promise.reject(new GraphQLError('dropped', { path: ['a'] }));
  `);
  expect(status).toBe(1);
  expect(stdout).toBe('1\n0\n');
});
