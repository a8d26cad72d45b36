import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId, type Db } from 'mongodb';
import { objectIdArgument, type GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * `unit.updateSource(type, selector, changes)` writes only a document the whole selector matches: a
 * guard beside the `_id` (only an OPEN task is archived) holds, and NOT_FOUND leaves everything as it was.
 */
const SDL = /* GraphQL */ `
  type Query { task(id: ID!): Task @find }
  type Mutation { archiveOpenTask(id: ID!): Task }
  type Task @collection(name: "tasks") { id: ID! title: String! status: String! }
`;
const [open, closed] = [new ObjectId('6955b90000000000000000c1'), new ObjectId('6955b90000000000000000c2')];

async function archiveOpenTask(_parent: unknown, args: { id: string }, context: GatewayContext, info: GraphQLResolveInfo) {
  const id = objectIdArgument(args.id, 'id');
  await context.writes.run(info, (unit) => unit.updateSource('Task', { _id: id, status: 'OPEN' }, { status: 'ARCHIVED' }));
  return context.documents.findOne(info, 'Task', { _id: id });
}

let fixture: SdlGateway;
let db: Db;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'update_source_selector',
    prepare: async (fresh) => void (await fresh.collection('tasks').insertMany([{ _id: open, title: 'To do', status: 'OPEN' }, { _id: closed, title: 'Done', status: 'CLOSED' }])),
    gateway: {
      resolvers: { Mutation: { archiveOpenTask } },
      writePlans: { archiveOpenTask: [{ kind: 'updateSource', typeName: 'Task', by: '_id', fields: ['status'] }] },
      onWarning: () => undefined,
    },
  });
  db = fixture.db;
}, 60_000);
afterAll(() => fixture?.stop());

it('archives the OPEN task, and refuses the CLOSED one with NOT_FOUND, nothing written', async () => {
  const archive = (id: ObjectId) => fixture.gateway.execute({ query: `mutation { archiveOpenTask(id: "${id.toHexString()}") { status } }` });
  expect((await archive(open)).data).toEqual({ archiveOpenTask: { status: 'ARCHIVED' } });
  const refused = await archive(closed);
  expect([refused.errors?.map((error) => error.extensions?.code), (await db.collection('tasks').findOne({ _id: closed }))?.status]).toEqual([['NOT_FOUND'], 'CLOSED']);
});
