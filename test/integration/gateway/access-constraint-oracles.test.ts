import type { Db } from 'mongodb';
import { startSdlGateway } from '../../support/sdl-gateway';

/**
 * The database's own constraints, where the role may not see what they compare: a partial unique index
 * whose filter reads a hidden field (a clash tells that the row holding the value matches it), and a
 * collection validator reading one (whether a write passes tells that value, bit by bit). Startup warns
 * of each, with the change that keeps the value unknown; a filter or validator over what the role sees
 * is no such oracle.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    users: [User!]! @list(sort: "email")
  }
  type Mutation {
    updateUser(id: ID!, input: UserPatch!): User! @update
  }
  input UserPatch {
    email: String
    bonus: Int
  }
  type User @collection(name: "users") @access(roles: ["manager"], allow: [READ, UPDATE], hide: ["active", "salary"]) @access(roles: ["admin"], allow: [READ, UPDATE]) {
    id: ID!
    email: String!
    bonus: Int!
    active: Boolean
    salary: Int
  }
`;

async function startupWarnings(prepare: (db: Db) => Promise<void>, sdl = typeDefs): Promise<string[]> {
  const warnings: string[] = [];
  const started = await startSdlGateway({
    typeDefs: sdl,
    dbPrefix: 'access_constraint_oracles',
    prepare: async (db) => {
      await prepare(db);
      await db.collection('users').createIndex({ email: 1, _id: 1 });
    },
    gateway: { auth: { jwt: { secret: 'a-test-secret-that-is-long-enough-for-hs256' } }, onWarning: (message) => warnings.push(message) },
  });
  await started.stop();
  return warnings.filter((warning) => /validator|unique index/.test(warning));
}

it('warns where a partial unique index filters by a hidden field, or a validator reads one; not where they read what the role sees', async () => {
  const hidden = await startupWarnings(async (db) => {
    await db.createCollection('users', { validator: { $expr: { $lte: ['$bonus', { $ifNull: ['$salary', 1000000] }] } } });
    await db.collection('users').createIndex({ email: 1 }, { unique: true, partialFilterExpression: { active: true } });
  });
  expect(hidden).toEqual([
    'User.email: role "manager" may update it, and the unique index { "email": 1 } compares only the rows its partial filter matches, which reads User.active, which is hidden from role "manager": a refused write tells the role that the row holding the value matches that filter; if that must stay unknown, drop that field from the index\'s partialFilterExpression, or keep the role from writing email (readOnly, or no CREATE)',
    'User: role "manager" may update it, and the validator of collection "users" reads "salary" (User.salary, which is hidden from role "manager"), so whether a write passes the validator tells the role that value; if it must stay unknown, drop "salary" from the validator, or keep the role from writing User',
  ]);
  const seen = await startupWarnings(async (db) => {
    await db.createCollection('users', { validator: { bonus: { $gte: 0 }, $or: [{ email: { $type: 'string' } }] } });
    await db.collection('users').createIndex({ email: 1 }, { unique: true, partialFilterExpression: { bonus: { $gt: 0 } } });
  });
  expect(seen).toEqual([]);
  // A validator that only warns refuses nothing.
  const warnOnly = await startupWarnings(async (db) => {
    await db.createCollection('users', { validator: { salary: { $gte: 0 } }, validationAction: 'warn' });
  });
  expect(warnOnly).toEqual([]);
});

it("within the role's own rows a partial unique index's clash tells only what its filter reads", async () => {
  const tenants = typeDefs
    .replace('@access(roles: ["manager"], allow: [READ, UPDATE], hide: ["active", "salary"])', '@access(roles: ["manager"], allow: [READ, UPDATE], where: [{ field: "tenant", claim: "tenant" }], hide: ["active", "salary"])')
    .replace('email: String!', 'email: String!\n    tenant: String!');
  const warnings = await startupWarnings(async (db) => {
    await db.collection('users').createIndex({ tenant: 1, email: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await db.collection('users').createIndex({ tenant: 1, email: 1, _id: 1 });
  }, tenants);
  expect(warnings).toEqual([
    'User.email: role "manager" may update it, and the unique index { "tenant": 1, "email": 1 } compares only the rows its partial filter matches, which reads User.active, which is hidden from role "manager": a refused write tells the role that the row holding the value matches that filter; if that must stay unknown, drop that field from the index\'s partialFilterExpression, or keep the role from writing email (readOnly, or no CREATE)',
  ]);
});
