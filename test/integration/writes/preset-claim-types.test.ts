import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A create rule's `where: [{ field, claim }]` sets the field from the claim: only a claim that is a
 * value of the field's type (a 32-bit integer for an Int, a string for a String) stands for it. Another
 * is no claim, as for reads: the create is FORBIDDEN and nothing is written, so no row holds a value its
 * field cannot serve. (An enum's claim is taken as given: its resolvers may store other values.)
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { projects: [Project!]! @list(sort: "name") }
  type Mutation { createProject(input: ProjectInput!): Project! @create }
  type Project @collection(name: "projects")
    @access(roles: ["admin"], allow: [READ])
    @access(roles: ["member"], allow: [READ, CREATE], where: [{ field: "level", claim: "level" }, { field: "team", claim: "team" }]) {
    id: ID!
    name: String!
    level: Int
    team: String
  }
  input ProjectInput { name: String! }
`;

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({ typeDefs: TYPE_DEFS, dbPrefix: 'preset_claim_types', prepare: async (db) => void (await db.createCollection('projects')), gateway: { onWarning: () => undefined } });
}, 60_000);
afterAll(() => s?.stop());

const member = (claims: Record<string, unknown>): Viewer => ({ role: 'member', roles: ['member'], anonymous: false, subject: 'm', claims });
const create = (claims: Record<string, unknown>) => s.gateway.execute({ query: 'mutation { createProject(input: { name: "Zed" }) { name level team } }' }, { viewer: member(claims) });

it.each([
  ['a string for an Int', { level: 'high', team: 'red' }, '"level" claim that is a 32-bit integer'],
  ['a fraction for an Int', { level: 1.5, team: 'red' }, '"level" claim that is a 32-bit integer'],
  ['past 32 bits for an Int', { level: 3_000_000_000, team: 'red' }, '"level" claim that is a 32-bit integer'],
  ['a number for a String', { level: 1, team: 7 }, '"team" claim that is a string'],
])('refuses a create whose claim is %s, writing nothing', async (_, claims, claim) => {
  const result = await create(claims);
  expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['FORBIDDEN', `role "member" may create Project only with a ${claim}, which the token lacks`]]);
  expect(await s.db.collection('projects').countDocuments()).toBe(0);
});

it('sets each field from a claim of its type', async () => {
  const result = await create({ level: 2, team: 'red' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ createProject: { name: 'Zed', level: 2, team: 'red' } });
  expect(await s.db.collection('projects').find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ name: 'Zed', level: 2, team: 'red' }]);
});

it("reads and presets an enum field by a claim holding the value its resolvers store (Status.DRAFT as 'd')", async () => {
  const mapped = await startSdlGateway({
    typeDefs: /* GraphQL */ `
      type Query { projects: [Project!]! @list(sort: "name") }
      type Mutation { createProject(input: ProjectInput!): Project! @create }
      enum Status { DRAFT LIVE }
      type Project @collection(name: "projects") @access(roles: ["member"], allow: [READ, CREATE], where: [{ field: "status", claim: "status" }]) { id: ID! name: String! status: Status }
      input ProjectInput { name: String! }
    `,
    dbPrefix: 'preset_claim_mapped_enum',
    prepare: async (db) => void (await db.collection('projects').insertOne({ name: 'A', status: 'd' })),
    gateway: { resolvers: { Status: { DRAFT: 'd', LIVE: 'l' } }, onWarning: () => undefined },
  });
  try {
    const viewer = member({ status: 'd' });
    const created = await mapped.gateway.execute({ query: 'mutation { createProject(input: { name: "B" }) { name status } }' }, { viewer });
    expect(created.errors).toBeUndefined();
    expect((await mapped.gateway.execute({ query: '{ projects { name status } }' }, { viewer })).data).toEqual({ projects: [{ name: 'A', status: 'DRAFT' }, { name: 'B', status: 'DRAFT' }] });
  } finally {
    await mapped.stop();
  }
});
