import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

/** `costReport: false` (DOCJOIN_COST_REPORT=off) leaves extensions.cost out; the limits still refuse what their estimate exceeds. */
let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway({ scale: 0.05, env: { DOCJOIN_COST_REPORT: 'off', DOCJOIN_MAX_ROUND_TRIPS: '3' } });
}, 120_000);
afterAll(() => demo?.stop());

it('answers without extensions.cost', async () => {
  const response = await demo.gateway.apollo.executeOperation({ query: '{ books(first: 2) { name publisher { name } } }' }, { contextValue: demo.gateway.createContext() });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  const { data, errors, extensions } = response.body.singleResult;
  expect(errors).toBeUndefined();
  expect((data as { books: unknown[] }).books).toHaveLength(2);
  expect(extensions).toBeUndefined();
});

it('still estimates for a finite limit, and refuses an operation over it before anything is sent', async () => {
  const { errors, data } = await demo.gateway.execute({ query: '{ authors(first: 2) { books { publisher { books(first: 2) { name } } } } }' });
  expect(errors?.map((error) => error.extensions?.code)).toEqual(['COST_LIMIT_EXCEEDED']);
  expect(data).toBeUndefined();
});
