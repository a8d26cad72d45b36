import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId } from 'mongodb';
import { objectIdArgument, type GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A hand-written mutation that reads through `context.documents` before its write unit (a guard: is
 * the parent there?) and answers after it: the joins under its answer read what the unit wrote, not
 * the copies the guard read before it. A document the unit changed is read again; one it deleted is gone.
 */
const SDL = /* GraphQL */ `
  type Query { note(id: ID!): Note @find }
  type Mutation {
    retitleParent(childId: ID!, title: String!): Note
    deleteNote(id: ID!): Note
  }
  type Note @collection(name: "notes") { id: ID! title: String! parent: Note @join(localField: "parentId") }
`;
const [parent, child] = [new ObjectId('6955b90000000000000000d1'), new ObjectId('6955b90000000000000000d2')];

/** The child's parent, read as a team's guard reads it, through the request's documents. */
async function guardParent(args: { childId: string }, context: GatewayContext, info: GraphQLResolveInfo): Promise<ObjectId> {
  const found = await context.documents.findOne<{ _id: ObjectId }>(info, 'Note', { _id: parent });
  if (!found) throw new Error('no parent');
  expect(objectIdArgument(args.childId, 'childId')).toEqual(child);
  return found._id;
}

let fixture: SdlGateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'reads_after_writes',
    prepare: async (db) => void (await db.collection('notes').insertMany([{ _id: parent, title: 'old' }, { _id: child, title: 'child', parentId: parent }])),
    gateway: {
      // The guard read is the resolver's own: no static estimate counts it.
      checkEstimates: false,
      onWarning: () => undefined,
      resolvers: {
        Mutation: {
          async retitleParent(_source: unknown, args: { childId: string; title: string }, context: GatewayContext, info: GraphQLResolveInfo) {
            const id = await guardParent(args, context, info);
            await context.writes.run(info, (unit) => unit.updateSource('Note', { _id: id }, { title: args.title }));
            return context.documents.findOne(info, 'Note', { _id: child });
          },
          async deleteNote(_source: unknown, args: { id: string }, context: GatewayContext, info: GraphQLResolveInfo) {
            const id = objectIdArgument(args.id, 'id');
            if (!(await context.documents.findOne(info, 'Note', { _id: id }))) throw new Error('no note');
            await context.writes.run(info, (unit) => unit.delete('Note', id));
            return context.documents.findOne(info, 'Note', { _id: id });
          },
        },
      },
      writePlans: {
        retitleParent: [{ kind: 'updateSource', typeName: 'Note', by: '_id', fields: ['title'] }],
        deleteNote: [{ kind: 'delete', typeName: 'Note' }],
      },
    },
  });
}, 60_000);
afterAll(() => fixture?.stop());

it('answers a join under the mutation with the document its write unit changed, read again after the write', async () => {
  const result = await fixture.gateway.execute({ query: `mutation { retitleParent(childId: "${child.toHexString()}", title: "new") { title parent { title } } }` });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ retitleParent: { title: 'child', parent: { title: 'new' } } });
  expect(result.cost?.fields['Note.parent']).toMatchObject({ strategy: 'join', roundTrips: 1 });
});

it('answers null for the document its write unit deleted, though the guard read it before', async () => {
  const result = await fixture.gateway.execute({ query: `mutation { deleteNote(id: "${child.toHexString()}") { title } }` });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ deleteNote: null });
  expect(await fixture.db.collection('notes').countDocuments({ _id: child })).toBe(0);
});
