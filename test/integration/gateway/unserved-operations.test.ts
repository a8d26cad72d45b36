import { parse, type OperationDefinitionNode } from 'graphql';
import { estimateRequest } from '../../../src/gateway/operation/estimate/estimate-request';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * graphql-js 16 validates no operation against a root type the schema lacks: a mutation of a schema
 * without a Mutation type is refused before its estimate (which nothing bounds) with a clear error, as a
 * subscription is, and the server goes on serving.
 */
const SDL = /* GraphQL */ `
  type Query { notes: [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;
let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({ typeDefs: SDL, dbPrefix: 'unserved_operations', prepare: async (db) => void (await db.collection('notes').insertOne({ text: 'hi' })) });
}, 60_000);
afterAll(() => subject?.stop());

it.each([
  ['mutation { addNote }', 'this schema has no Mutation type: it serves queries alone'],
  ['mutation { __typename }', 'this schema has no Mutation type: it serves queries alone'],
  ['subscription { __typename }', 'docjoin serves queries and mutations; a subscription is not supported'],
])('%s is OPERATION_NOT_SUPPORTED, sending nothing', async (query, message) => {
  const result = await subject.gateway.execute({ query });
  expect([result.errors?.map((error) => [error.extensions?.code, error.message]), result.data]).toEqual([[['OPERATION_NOT_SUPPORTED', message]], undefined]);
  expect((await subject.gateway.execute({ query: '{ notes { text } }' })).data).toEqual({ notes: [{ text: 'hi' }] });
});

it('has no estimate for a mutation of a schema without a Mutation type (estimateRequest, as exported)', () => {
  const document = parse('mutation { __typename }');
  const operation = document.definitions[0] as OperationDefinitionNode;
  const estimate = estimateRequest({ schema: subject.gateway.schema, storageMap: subject.gateway.storageMap, document, operation, variables: {}, strategyFor: (field) => field.defaultStrategy });
  expect(estimate).toBeUndefined();
});

it.each([
  ['{ notes { nope } }'],
  ['{ notes }'],
  ['{ notes { ...F } } fragment F on Note { ...G } fragment G on Note { ...F }'],
])('has no estimate for %s, which validation refuses (a request of it sends nothing)', (query) => {
  const document = parse(query);
  const operation = document.definitions[0] as OperationDefinitionNode;
  expect(estimateRequest({ schema: subject.gateway.schema, storageMap: subject.gateway.storageMap, document, operation, variables: {}, strategyFor: (field) => field.defaultStrategy })).toBeUndefined();
});

it('estimates a valid read of the same list', () => {
  const document = parse('{ notes { text } }');
  const operation = document.definitions[0] as OperationDefinitionNode;
  expect(estimateRequest({ schema: subject.gateway.schema, storageMap: subject.gateway.storageMap, document, operation, variables: {}, strategyFor: (field) => field.defaultStrategy })?.roundTrips).toBe(1);
});
