import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A create rule's `where: [{ field, claim }]` sets the field from the claim: only a claim that is a
 * value of the field's type (an integer for an Int, a string for a String, a value of the enum) stands
 * for it. Another is no claim, as for reads: the create is FORBIDDEN and nothing is written, so no row
 * holds a value its field cannot serve.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { projects: [Project!]! @list(sort: "name") }
  type Mutation { createProject(input: ProjectInput!): Project! @create }
  enum Tier { GOLD SILVER }
  type Project @collection(name: "projects")
    @access(roles: ["admin"], allow: [READ])
    @access(roles: ["member"], allow: [READ, CREATE], where: [{ field: "level", claim: "level" }, { field: "team", claim: "team" }, { field: "tier", claim: "tier" }]) {
    id: ID!
    name: String!
    level: Int
    team: String
    tier: Tier
  }
  input ProjectInput { name: String! }
`;

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({ typeDefs: TYPE_DEFS, dbPrefix: 'preset_claim_types', prepare: async (db) => void (await db.createCollection('projects')), gateway: { onWarning: () => undefined } });
}, 60_000);
afterAll(() => s?.stop());

const member = (claims: Record<string, unknown>): Viewer => ({ role: 'member', roles: ['member'], anonymous: false, subject: 'm', claims });
const create = (claims: Record<string, unknown>) => s.gateway.execute({ query: 'mutation { createProject(input: { name: "Zed" }) { name level team tier } }' }, { viewer: member(claims) });

it.each([
  ['a string for an Int', { level: 'high', team: 'red', tier: 'GOLD' }, '"level" claim that is an integer'],
  ['a fraction for an Int', { level: 1.5, team: 'red', tier: 'GOLD' }, '"level" claim that is an integer'],
  ['a number for a String', { level: 1, team: 7, tier: 'GOLD' }, '"team" claim that is a string'],
  ['no value of the enum', { level: 1, team: 'red', tier: 'BRONZE' }, '"tier" claim that is one of GOLD, SILVER'],
])('refuses a create whose claim is %s, writing nothing', async (_, claims, claim) => {
  const result = await create(claims);
  expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['FORBIDDEN', `role "member" may create Project only with a ${claim}, which the token lacks`]]);
  expect(await s.db.collection('projects').countDocuments()).toBe(0);
});

it('sets each field from a claim of its type', async () => {
  const result = await create({ level: 2, team: 'red', tier: 'GOLD' });
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({ createProject: { name: 'Zed', level: 2, team: 'red', tier: 'GOLD' } });
  expect(await s.db.collection('projects').find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ name: 'Zed', level: 2, team: 'red', tier: 'GOLD' }]);
});
