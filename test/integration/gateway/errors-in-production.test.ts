import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

/** NODE_ENV=production: overrides are off, errors carry public codes and no stack traces. */
let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway({ env: { NODE_ENV: 'production' } });
}, 120_000);
afterAll(() => demo?.stop());

describe('in production', () => {
  it('ignores the strategy header (overrides are disabled)', async () => {
    const result = await demo.gateway.execute({ query: '{ books(first: 5) { authors { name } } }' }, { strategyHeader: 'Book.authors=join' });
    expect(result.cost!.roundTrips).toBe(1);
    expect(result.cost!.fields['Book.authors']!.strategy).toBe('snapshot');
  });

  it('reports bad input without a stack trace', async () => {
    const result = await demo.gateway.execute({ query: '{ book(id: "nope") { name } books(first: 1000) { name } }' });
    expect(result.errors).toEqual([
      { message: 'id must be a 24-character hexadecimal ObjectId, got "nope"', locations: [{ line: 1, column: 3 }], path: ['book'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'id' } },
      { message: 'first must be between 0 and 100, got 1000', locations: [{ line: 1, column: 29 }], path: ['books'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'first' } },
    ]);
  });

  it('turns a database failure into DATABASE_UNAVAILABLE, and keeps serving', async () => {
    const { gateway, client } = demo;
    await client.close();
    const result = await gateway.execute({ query: '{ books(first: 2) { name } }' });
    expect(result.errors).toEqual([
      { message: 'The database is unavailable; try again later', locations: [{ line: 1, column: 3 }], path: ['books'], extensions: { code: 'DATABASE_UNAVAILABLE' } },
    ]);
    expect(result.data).toBeNull();
  });
});
