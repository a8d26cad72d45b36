import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A generated create that repeats a unique value is BAD_USER_INPUT naming the input fields the index
 * covers, by their names in the input: a key inside a reference's copy by the reference.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { memberships(first: Int = 20): [Membership!]! @list }
  type Mutation { createMembership(input: MembershipInput!): Membership! @create }
  type Member @collection(name: "members") { id: ID! name: String! }
  type Membership @collection(name: "memberships") {
    id: ID!
    club: String!
    member: Member @snapshot(path: "member", fields: ["id", "name"]) @join(localField: "member.id") @read(strategy: SNAPSHOT)
  }
  input MembershipInput { club: String! member: ID! }
`;

const ada = new ObjectId();
let fixture: SdlGateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    dbPrefix: 'duplicate_key',
    typeDefs: TYPE_DEFS,
    prepare: async (db) => {
      await db.collection('members').insertOne({ _id: ada, name: 'Ada' });
      await db.collection('memberships').createIndex({ 'member.id': 1, club: 1 }, { unique: true });
    },
  });
}, 60_000);
afterAll(() => fixture?.stop());

it('names the reference whose key the unique index holds, and the other field, and writes nothing more', async () => {
  const create = () => fixture.gateway.execute({ query: `mutation { createMembership(input: { club: "chess", member: "${ada.toHexString()}" }) { id } }` });
  expect((await create()).errors).toBeUndefined();
  const repeated = await create();
  expect(repeated.errors?.map((error) => [error.message, error.extensions?.code])).toEqual([['another Membership already has this member and club (a unique index allows one)', 'BAD_USER_INPUT']]);
  expect(await fixture.db.collection('memberships').countDocuments()).toBe(1);
});
