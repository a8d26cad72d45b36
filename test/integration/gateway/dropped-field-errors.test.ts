import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * guardDroppedFieldErrors in a process of its own (jest listens for unhandled rejections itself): a
 * located GraphQLError rejected with no handler is counted and logged at most once a minute, and the
 * process goes on; any other rejection still ends the process as Node's default would; after the
 * guard's release, dropped errors are dropped unlogged; under another --unhandled-rejections mode it
 * stands aside.
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

it('installs one listener for two gateways, and two copies of the module, the second holder logging once the first released it', () => {
  const { status, stdout } = run(`
    const releaseFirst = guardDroppedFieldErrors({ warn: () => console.log('first logs') });
    delete require.cache[require.resolve(${JSON.stringify(MODULE)})];
    const releaseSecond = require(${JSON.stringify(MODULE)}).guardDroppedFieldErrors({ warn: () => console.log('second logs') });
    console.log(process.listenerCount('unhandledRejection'));
    releaseFirst();
    console.log(process.listenerCount('unhandledRejection'));
    Promise.reject(dropped('BAD_USER_INPUT'));
    setTimeout(releaseSecond, 10);
  `);
  expect(status).toBe(0);
  expect(stdout).toBe('1\n1\nsecond logs\nstill running\n');
});

it('keeps the listener once all released it: a list item settling after its gateway stopped drops its error unlogged, and other rejections still end the process', () => {
  const dropsAfterRelease = run(`
    guardDroppedFieldErrors({ warn: () => console.log('logged') }, { onDropped: () => console.log('counted') })();
    console.log(process.listenerCount('unhandledRejection'));
    Promise.reject(dropped('BAD_USER_INPUT'));
  `);
  expect(dropsAfterRelease).toMatchObject({ status: 0, stdout: '1\nstill running\n' });
  const otherAfterRelease = run(`
    guardDroppedFieldErrors(logger)();
    Promise.reject(new Error('boom'));
  `);
  expect(otherAfterRelease.status).toBe(1);
  expect(otherAfterRelease.stderr).toContain('Error: boom');
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

it("a gateway's stop leaves no dropped field error to end the process: a list item that fails after the response and the stop", () => {
  const script = `
    const { createGateway, connectMongo } = require(${JSON.stringify(join(__dirname, '../../../src'))});
    const { startTestMongo } = require(${JSON.stringify(join(__dirname, '../../support/test-mongo'))});
    (async () => {
      const mongo = await startTestMongo();
      const db = mongo.freshDb('dropped_after_stop');
      await db.createCollection('items');
      const client = await connectMongo(mongo.uri);
      const gateway = await createGateway({
        typeDefs: 'type Query { things: [Thing!]! items: [Item!]! @list } type Thing { name: String! } type Item @collection(name: "items") { id: ID! }',
        // The first item's name fails after the second's null has answered the list.
        resolvers: { Query: { things: () => [{ late: true }, {}] }, Thing: { name: (thing) => (thing.late ? new Promise((_, reject) => setTimeout(() => reject(new Error('late')), 100)) : null) } },
        mongoClient: client, db: db.databaseName, listen: false, logger: require('pino')({ level: 'silent' }),
      });
      const { data, errors } = await gateway.execute({ query: '{ things { name } }' });
      console.log(JSON.stringify({ data, errors: errors.map((error) => error.path) }));
      await gateway.stop();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await client.close();
      await mongo.stop();
      console.log('stopped cleanly');
    })();
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '../../..'), env: process.env });
  expect(result.stderr).toBe("");
  expect(result.stdout).toBe(`${JSON.stringify({ data: null, errors: [['things', 1, 'name']] })}\nstopped cleanly\n`);
  expect(result.status).toBe(0);
});
