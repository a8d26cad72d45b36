import type { CommandStartedEvent, Document } from 'mongodb';
import { startDemoGateway, type DemoGateway } from './support/demo-gateway';
import { VALUE_TYPES } from '../../../src/bson/type-rank';

/**
 * Projection pushdown as MongoDB receives it: each command asks for exactly the stored paths the
 * selection reads plus the keys the next level joins on, and nothing the client did not select.
 */
let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway();
}, 120_000);
afterAll(() => demo?.stop());

/** The commands the gateway's client sent for `query`, in order. */
async function commandsFor(query: string, strategyHeader?: string): Promise<Document[]> {
  const started: CommandStartedEvent[] = [];
  const listener = (event: CommandStartedEvent) => started.push(event);
  demo.client.on('commandStarted', listener);
  try {
    const result = await demo.gateway.execute({ query }, { strategyHeader });
    expect(result.errors).toBeUndefined();
  } finally {
    demo.client.off('commandStarted', listener);
  }
  return started.map((event) => event.command);
}

describe('projections on the wire', () => {
  it('a forward join: books send only the key the join reads, publishers only the selected name', async () => {
    const [books, publishers, ...rest] = await commandsFor('{ books(first: 5) { publisher { name } } }');
    expect(rest).toEqual([]);
    expect([books!.find, books!.projection]).toEqual(['books', { _id: 1, publisherId: 1 }]);
    expect([publishers!.find, publishers!.projection]).toEqual(['publishers', { _id: 1, name: 1 }]);
  });

  it('a reverse join: the aggregate projects the selected field, the parent key and the sort keys', async () => {
    const [hosts, logs, ...rest] = await commandsFor('{ hosts(first: 3) { logs(first: 5) { message } } }');
    expect(rest).toEqual([]);
    expect([hosts!.find, hosts!.projection]).toEqual(['hosts', { _id: 1 }]);
    const hostIds = (await demo.client.db(demo.dbName).collection('hosts').find({}, { sort: { _id: 1 }, limit: 3, projection: { _id: 1 } }).toArray()).map((host) => host._id);
    expect(hostIds).toHaveLength(3);
    // one indexed, limited branch per parent: the first leads, the others are $unionWith branches
    const branch = (hostId: unknown): Document[] => [
      { $match: { 'host.id': hostId } },
      { $sort: { time: -1, _id: -1 } },
      { $limit: 5 },
      { $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } },
    ];
    expect(logs!.aggregate).toBe('logMessages');
    expect(logs!.pipeline).toEqual([
      ...branch(hostIds[0]),
      { $unionWith: { coll: 'logMessages', pipeline: branch(hostIds[1]) } },
      { $unionWith: { coll: 'logMessages', pipeline: branch(hostIds[2]) } },
    ]);
  });

  it('scalars read at their stored path, and a snapshot that fits is read from its copy only', async () => {
    const [books, ...rest] = await commandsFor('{ books(first: 3) { name authors { name } } }');
    expect(rest).toEqual([]);
    expect(books!.projection).toEqual({ _id: 1, name: 1, authors: 1 });
  });

  it('a snapshot that misses reads the join keys instead of the copy', async () => {
    const [books, authors, ...rest] = await commandsFor('{ books(first: 3) { authors { countOfBooks } } }');
    expect(rest).toEqual([]);
    expect(books!.projection).toEqual({ _id: 1, 'authors.id': 1 });
    expect([authors!.find, authors!.projection]).toEqual(['authors', { _id: 1, countOfBooks: 1 }]);
  });

  it('lookups: one aggregate, each $lookup projecting what its selection reads, nested, the page inside the reverse one', async () => {
    const query = '{ authors(first: 2) { name books { name publisher { name books(first: 3) { name } } } } }';
    const [authors, ...rest] = await commandsFor(query, 'Author.books=lookup,Book.publisher=lookup,Publisher.books=lookup');
    expect(rest).toEqual([]);
    const pipeline = authors!.pipeline as Document[];
    // Each read projects first, then looks up (its lookups' keys are among what it keeps).
    const books = (pipeline[4]!.$lookup as { as: string }).as;
    const publisher = (pipeline[4]!.$lookup.pipeline[1].$lookup as { as: string }).as;
    const publisherBooks = (pipeline[4]!.$lookup.pipeline[1].$lookup.pipeline[1].$lookup as { as: string }).as;
    for (const [name, field] of [[books, 'books'], [publisher, 'publisher'], [publisherBooks, 'books']] as const) expect(name).toMatch(new RegExp(`^_dj_${field.slice(0, 5)}_[0-9a-f]{10}$`));
    // Author.books and Publisher.books: one field name, two lookups (other types, other pages), two names.
    expect(books).not.toBe(publisherBooks);
    const firstKey = `_docjoin_first_key_of${publisher}`;
    expect(authors!.aggregate).toBe('authors');
    expect(pipeline).toEqual([
      { $match: {} },
      { $sort: { _id: 1 } },
      { $limit: 2 },
      { $project: { _id: 1, name: 1, bookIds: 1 } },
      {
        $lookup: {
          from: 'books',
          localField: 'bookIds',
          foreignField: '_id',
          as: books,
          pipeline: [
            // A single reference reads its first key only, should the parent hold an array.
            { $project: { _id: 1, name: 1, publisherId: 1, [firstKey]: { $cond: [{ $isArray: '$publisherId' }, { $first: '$publisherId' }, '$publisherId'] } } },
            {
              $lookup: {
                from: 'publishers',
                localField: firstKey,
                foreignField: '_id',
                as: publisher,
                pipeline: [
                  { $project: { _id: 1, name: 1 } },
                  {
                    $lookup: {
                      from: 'books',
                      localField: '_id',
                      foreignField: 'publisherId',
                      as: publisherBooks,
                      // A parent without the key must not match the children without one.
                      pipeline: [{ $match: { publisherId: { $type: [...VALUE_TYPES] } } }, { $sort: { _id: 1 } }, { $limit: 3 }, { $project: { _id: 1, name: 1, publisherId: 1 } }],
                    },
                  },
                ],
              },
            },
            { $unset: [firstKey] },
          ],
        },
      },
    ]);
  });
});
