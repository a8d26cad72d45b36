import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A snapshot copy holding only its key (what migrate's backfill leaves for a dangling key) is joined,
 * which the estimate counts only where the startup sample saw such copies. Past the round-trip limit,
 * that join is refused as a hand-written resolver's read is: its error names the field and both causes;
 * within the limit, it is answered and reported as an exceeded estimate.
 */
const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    publisher: Publisher @snapshot(path: "publisher", fields: ["id", "name"]) @join(localField: "publisher.id") @read(strategy: SNAPSHOT)
  }
  type Publisher @collection(name: "publishers") { id: ID! name: String }
`;
const [known, gone] = [new ObjectId('6955b90000000000000000f1'), new ObjectId('6955b90000000000000000ff')];
const QUERY = '{ books { title publisher { id } } }';

async function start(maxRoundTrips: number): Promise<SdlGateway> {
  const fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: `runtime_limit_stale_copies_${maxRoundTrips}`,
    prepare: async (db) => {
      await db.collection('publishers').insertOne({ _id: known, name: 'Known' });
      await db.collection('books').insertOne({ title: 'complete', publisher: { id: known, name: 'Known' } });
    },
    gateway: { onWarning: () => undefined, checkEstimates: false, limits: { maxRoundTrips } },
  });
  // Written after startup, as a copy outside the startup sample would be.
  await fixture.db.collection('books').insertOne({ title: 'key only', publisher: { id: gone } });
  return fixture;
}

it('refuses the join past the limit, naming the field and what reads past an estimate', async () => {
  const fixture = await start(1);
  try {
    const result = await fixture.gateway.execute({ query: QUERY });
    expect(result.data).toEqual({ books: [{ title: 'complete', publisher: { id: known.toHexString() } }, { title: 'key only', publisher: null }] });
    expect(result.errors?.map((error) => [error.path?.join('.'), error.extensions?.code, error.message])).toEqual([
      [
        'books.1.publisher',
        'COST_LIMIT_EXCEEDED',
        'Operation stopped at its limit of 1 round trips (set by the limits.maxRoundTrips option): it read more than the 1 its estimate counted for Book.publisher, which only a read the estimate cannot see sends: a hand-written resolver reading through context.documents, or the join of snapshot copies lacking the fields selected. Ask for fewer items, or read them in fewer commands.',
      ],
    ]);
    expect([result.cost?.roundTrips, result.cost?.estimatedRoundTrips]).toEqual([1, 1]);
  } finally {
    await fixture.stop();
  }
});

it('answers the join within the limit, reporting the exceeded estimate', async () => {
  const fixture = await start(2);
  try {
    const result = await fixture.gateway.execute({ query: QUERY });
    expect([result.errors, result.data]).toEqual([undefined, { books: [{ title: 'complete', publisher: { id: known.toHexString() } }, { title: 'key only', publisher: null }] }]);
    expect([result.cost?.roundTrips, result.cost?.estimatedRoundTrips, result.cost?.estimateExceeded]).toEqual([2, 1, ['roundTrips']]);
  } finally {
    await fixture.stop();
  }
});
