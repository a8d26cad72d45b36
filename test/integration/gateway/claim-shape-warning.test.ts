import { ObjectId } from 'mongodb';
import { createGateway, type Gateway } from 'docjoin';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A claim that cannot be the stored value its access rule compares (a `sub` like `auth0|…` against an
 * owner stored as an ObjectId, a list or a number against a String) matches no document: the viewer sees nothing, and
 * docjoin says why once per role and claim, without the claim's value.
 */
const typeDefs = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Note @collection(name: "notes") @access(roles: ["reader"], allow: [READ], where: [{ field: "owner", claim: "sub" }, { field: "tenant", claim: "tenant" }]) {
    id: ID!
    owner: ID!
    tenant: String!
    text: String!
  }
`;
const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const ANN = new ObjectId('6955b90000000000000000a1');

const files = mongoForFile();
let gateway: Gateway;
const warnings: string[] = [];
beforeAll(async () => {
  const db = files.mongo.freshDb('claim_shape');
  await db.collection('notes').insertMany([
    { owner: ANN, tenant: 'acme', text: 'ann 1' },
    { owner: new ObjectId(), tenant: 'acme', text: 'bob 1' },
  ]);
  gateway = await createGateway({ typeDefs, auth: { jwt: { secret: SECRET } }, mongoClient: files.client, db: db.databaseName, port: 0, onWarning: (message) => warnings.push(message) });
}, 60_000);
afterAll(() => gateway.stop());

async function notesAs(claims: Record<string, unknown>): Promise<unknown> {
  const { SignJWT } = await import('jose');
  const token = await new SignJWT({ role: 'reader', ...claims }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ notes { text } }' }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: unknown }).data;
}

const claimWarnings = () => warnings.filter((message) => message.includes('as its claim'));

it('a sub that is no ObjectId reads nothing and is reported once, without its value', async () => {
  expect(await notesAs({ sub: 'auth0|ann', tenant: 'acme' })).toEqual({ notes: [] });
  expect(await notesAs({ sub: 'auth0|bob', tenant: 'acme' })).toEqual({ notes: [] });
  expect(claimWarnings()).toEqual([
    'a token of role reader holds a string that is not 24 hex digits as its claim sub, which the access rules compare with ObjectIds (Note.owner): those rules match no document for it, so it reads and changes nothing there; issue tokens whose sub is the 24-hex id, or declare those fields String and store the claim\'s values (reported once per role and claim)',
  ]);
});

it('a claim of a kind no stored value has is reported; fitting claims are not', async () => {
  expect(await notesAs({ sub: ANN.toHexString(), tenant: 'acme' })).toEqual({ notes: [{ text: 'ann 1' }] });
  expect(claimWarnings()).toHaveLength(1);
  expect(await notesAs({ sub: ANN.toHexString(), tenant: ['acme'] })).toEqual({ notes: [] });
  expect(claimWarnings().slice(1)).toEqual([
    'a token of role reader holds a list as its claim tenant, which the access rules compare with stored values, each a string (Note.tenant): those rules match no document for it, so it reads and changes nothing there; issue tokens whose tenant is a string (reported once per role and claim)',
  ]);
});
