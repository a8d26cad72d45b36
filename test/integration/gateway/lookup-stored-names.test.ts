import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { planLookup } from '../../../src/gateway/operation/planning/lookup-read';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * An embedded element read whole keeps every key it stores, and a lookup's `as` name is the same for
 * everyone with the schema (lookup-read.ts). A key an element stores under it must never be read as what
 * the `$lookup` brought: a member who writes one would show every reader a user the row filter never
 * saw, made up whole (found by an attacker review).
 */
const typeDefs = /* GraphQL */ `
  scalar JSON
  type Query { posts(first: Int = 20): [Post!]! @list }
  type Mutation { updatePost(id: ID!, input: PostPatch!): Post! @update }
  input PostPatch { linesRaw: JSON }
  type User @collection(name: "users")
    @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
    team: String!
  }
  type Post @collection(name: "posts")
    @access(roles: ["member"], allow: [READ])
    @access(roles: ["member"], allow: [UPDATE], where: [{ field: "owner", claim: "sub" }]) {
    id: ID!
    owner: String!
    lines: [Line]! @embedded
    linesRaw: JSON @path(path: "lines")
  }
  type Line { text: String  who: User @join(localField: "whoId") @read(strategy: LOOKUP) }
`;

const red = new ObjectId('0000000000000000000000a1');
const blue = new ObjectId('0000000000000000000000b1');
const post = new ObjectId('0000000000000000000000c1');
const attacker: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'mallory', claims: { sub: 'mallory', team: 'red' } };
const reader: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'rita', claims: { sub: 'rita', team: 'red' } };

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'scratch_stored_lookup_name',
    prepare: async (db) => {
      await db.collection('users').insertMany([{ _id: red, name: 'Red', team: 'red' }, { _id: blue, name: 'Blue (hidden)', team: 'blue' }]);
      await db.collection('posts').insertOne({ _id: post, owner: 'mallory', lines: [{ text: 'hi', whoId: red }] });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

it('a lookup reads only what its $lookup brought, never a key an element stores under its name', async () => {
  const query = '{ posts { lines { text who { name } } } }';
  const before = await s.gateway.execute({ query, variables: {} }, { viewer: reader });
  expect(before.data).toEqual({ posts: [{ lines: [{ text: 'hi', who: { name: 'Red' } }] }] });
  // The name the lookup takes, as anyone with the schema can work it out.
  const who = buildWriteModelFromSdl(withDirectiveTypeDefs(typeDefs)).storageMap.relations.get('Line.who')!;
  const as = planLookup(who, who.shapes.join!, {})!.as;
  const forged = { text: 'hi', whoId: 'k', [as]: [{ _id: 'k', name: 'Forged: any content', team: 'blue' }] };
  const write = await s.gateway.execute({ query: 'mutation ($id: ID!, $lines: JSON) { updatePost(id: $id, input: { linesRaw: $lines }) { id } }', variables: { id: post.toHexString(), lines: [forged] } }, { viewer: attacker });
  const after = await s.gateway.execute({ query }, { viewer: reader });
  expect(write.errors).toBeUndefined();
  // No user has the key 'k': the join answers null, and so must the lookup (it brought nothing).
  const joined = await s.gateway.execute({ query }, { viewer: reader, strategyHeader: 'Line.who=join' });
  expect(joined.data).toEqual({ posts: [{ lines: [{ text: 'hi', who: null }] }] });
  expect(after.data).toEqual(joined.data);
});

