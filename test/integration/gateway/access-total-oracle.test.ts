import { Long, ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A Long @total sums every child, the ones a role may not read too, so the role's rule hides it. A
 * write that would carry it past 2^63 - 1 is refused, and which of the role's writes are refused tells
 * it the hidden total (a binary search over the value it creates, deleting each accepted probe). The
 * refusal keeps the data whole, as a unique index's does, so startup warns, per role, with the change
 * that keeps the total unknown; and the refusal itself never carries MongoDB's message, which names
 * the total.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { accounts(first: Int = 20): [Account!]! @list }
  type Mutation {
    createEntry(input: EntryInput!): Entry! @create
    updateEntry(id: ID!, input: EntryPatch!): Entry! @update
    deleteEntry(id: ID!): Boolean! @delete(type: "Entry")
  }
  type Account @collection(name: "accounts")
    @access(roles: ["member", "clerk", "auditor"], allow: [READ], hide: ["points"])
    @access(roles: ["admin"], allow: [READ]) {
    id: ID!
    name: String!
    entries(first: Int = 20): [Entry!]! @join(localField: "_id", foreignField: "accountId")
    points: Long! @total(of: "Account.entries", field: "points")
  }
  type Entry @collection(name: "entries")
    @access(roles: ["member"], allow: [READ, CREATE, DELETE], where: [{ field: "owner", claim: "sub" }])
    @access(roles: ["clerk"], allow: [READ], where: [{ field: "owner", claim: "sub" }])
    @access(roles: ["clerk"], allow: [UPDATE], where: [{ field: "owner", claim: "sub" }], readOnly: ["points", "account"])
    @access(roles: ["auditor"], allow: [READ], where: [{ field: "owner", claim: "sub" }])
    @access(roles: ["admin"], allow: [READ, CREATE]) {
    id: ID!
    owner: String
    note: String
    points: Long
    account: Account @join(localField: "accountId")
  }
  input EntryInput { account: ID! points: Long owner: String }
  input EntryPatch { points: Long note: String }
`;

const ALICES_ENTRY = '1000000000000000000';
const account = new ObjectId();
const mallory: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'mallory', claims: { sub: 'mallory' } };
const warnings: string[] = [];
let s: SdlGateway;

beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'access_total_oracle',
    prepare: async (db) => {
      await db.collection('accounts').insertOne({ _id: account, name: 'shared', points: Long.fromString(ALICES_ENTRY) });
      await db.collection('entries').insertOne({ owner: 'alice', points: Long.fromString(ALICES_ENTRY), accountId: account });
      await db.collection('entries').createIndex({ accountId: 1 });
    },
    // Outside production: a stack trace would carry the refusal's cause.
    gateway: { onWarning: (message) => warnings.push(message) },
  });
}, 60_000);
afterAll(() => s?.stop());

it('warns at startup for a role that moves a Long total it may not see; not for one whose writes cannot move it, nor one that reads it', () => {
  expect(warnings.filter((warning) => warning.startsWith('Account.points:'))).toEqual([
    'Account.points: role "member" may create and delete Entry rows, which move this Long @total, and may not see it; a write that would carry it past the largest Long is refused, so which writes are refused tells the role the total; if that must stay unknown, keep the role from writing Entry.points (no CREATE or DELETE, readOnly on UPDATE), or let it read Account.points',
  ]);
});

it('refuses the write that would pass the largest Long without MongoDB\'s message, which names the total', async () => {
  const refused = await s.gateway.execute({ query: `mutation { createEntry(input: { account: "${account}", points: "9000000000000000000" }) { id } }` }, { viewer: mallory });
  expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  expect(JSON.stringify(refused.errors)).not.toContain(ALICES_ENTRY);
  expect(await s.db.collection('entries').countDocuments()).toBe(1);
});
