import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

/**
 * Switching a field's strategy changes the cost, never the data: each operation runs under every
 * strategy its switchable field declares; `data` must be deep-equal and the round trips exactly as
 * the design predicts (embedded and snapshot reads cost 0, a join costs 1 per level unless the
 * documents were already loaded with the needed fields, or the batch is shared).
 */
interface Case {
  readonly name: string;
  readonly query: string;
  /** Round trips per `x-docjoin-strategy` value ('' = the SDL defaults). */
  readonly roundTrips: Readonly<Record<string, number>>;
}

const CASES: readonly Case[] = [
  {
    name: 'Book.authors: snapshot copy vs join by authors.id',
    query: '{ books(first: 30) { id name authors { id name thumbnailUrl } } }',
    roundTrips: { '': 1, 'Book.authors=snapshot': 1, 'Book.authors=join': 2 },
  },
  {
    name: 'Product.parts: snapshot copy vs join by parts.id',
    query: '{ products(first: 20) { catalogNumber name parts { id name } } }',
    roundTrips: { '': 1, 'Product.parts=snapshot': 1, 'Product.parts=join': 2 },
  },
  {
    name: 'LogMessage.host: snapshot vs join, hosts not covered by the root list',
    query: '{ hosts(first: 10) { logs(first: 3) { message time host { id name ipaddr } } } }',
    roundTrips: { '': 2, 'LogMessage.host=snapshot': 2, 'LogMessage.host=join': 3 },
  },
  {
    name: 'LogMessage.host: join served by the primed root list',
    query: '{ hosts(first: 10) { id name ipaddr logs(first: 3) { id host { id name ipaddr } } } }',
    roundTrips: { '': 2, 'LogMessage.host=join': 2 },
  },
  {
    name: 'Post.recentComments: embedded vs join (newest 3 by postId)',
    query: '{ posts(first: 10) { title recentComments { id author comment createdAt } } }',
    roundTrips: { '': 1, 'Post.recentComments=embedded': 1, 'Post.recentComments=join': 2 },
  },
  {
    name: 'Post.recentComments join shares its aggregate with Post.comments(first: 3)',
    query: '{ posts(first: 10) { recentComments { id author } comments(first: 3) { id author } } }',
    roundTrips: { '': 2, 'Post.recentComments=join': 2 },
  },
  {
    name: 'Host.recentLogs: embedded vs join (newest 10 by host.id)',
    query: '{ hosts(first: 10) { name recentLogs { id time message host { name } } } }',
    roundTrips: { '': 1, 'Host.recentLogs=embedded': 1, 'Host.recentLogs=join': 2, 'Host.recentLogs=join,LogMessage.host=join': 2 },
  },
  {
    name: 'Book.authors: the copy, the join, or a $lookup inside the books find',
    query: '{ books(first: 30) { id name authors { id name thumbnailUrl } } }',
    roundTrips: { '': 1, 'Book.authors=join': 2, 'Book.authors=lookup': 1 },
  },
  {
    name: 'the deep query of issue 36: four levels of joins in one command under lookup',
    query: '{ authors(first: 50) { name books { name publisher { name books(first: 3) { name } } } } }',
    roundTrips: { '': 4, 'Author.books=lookup': 3, 'Author.books=lookup,Book.publisher=lookup,Publisher.books=lookup': 1 },
  },
  {
    name: 'a lookup below a join, and a join below a lookup',
    query: '{ authors(first: 10) { name books { name publisher { name books(first: 2) { name } } } } }',
    roundTrips: { 'Book.publisher=lookup': 3, 'Author.books=lookup,Publisher.books=lookup': 2 },
  },
  {
    name: 'Post.comments: a reverse join with a page, aliases with other pages, by lookup',
    query: '{ posts(first: 10) { title newest: comments(first: 2) { id author } all: comments(first: 50) { id } } }',
    roundTrips: { '': 2, 'Post.comments=lookup': 1 },
  },
  {
    name: 'Post.recentComments: its embedded copy, its join or its lookup',
    query: '{ posts(first: 10) { title recentComments { id author comment createdAt } } }',
    roundTrips: { 'Post.recentComments=embedded': 1, 'Post.recentComments=join': 2, 'Post.recentComments=lookup': 1 },
  },
  {
    name: 'LogMessage.host under an embedded array: the lookup rides in the hosts read, each log its own host',
    query: '{ hosts(first: 10) { recentLogs { message host { id name ipaddr } } } }',
    roundTrips: { 'LogMessage.host=join': 2, 'LogMessage.host=lookup': 1 },
  },
  {
    name: 'every switchable field at once',
    query: '{ books(first: 5) { authors { name } } products(first: 5) { parts { name } } posts(first: 5) { recentComments { author } } hosts(first: 5) { recentLogs { message host { ipaddr } } } }',
    roundTrips: {
      '': 4,
      'Book.authors=join,Product.parts=join,Post.recentComments=join,Host.recentLogs=join,LogMessage.host=join': 4 + 4 + 1,
    },
  },
];

let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway();
}, 120_000);
afterAll(() => demo?.stop());

describe.each(CASES)('$name', ({ query, roundTrips }) => {
  it('returns the same data under every strategy, at the predicted cost', async () => {
    const results = [];
    for (const header of Object.keys(roundTrips)) {
      const result = await demo.gateway.execute({ query }, { strategyHeader: header });
      expect(result.errors).toBeUndefined();
      results.push({ header, data: result.data, roundTrips: result.cost!.roundTrips });
    }
    expect(Object.fromEntries(results.map((r) => [r.header, r.roundTrips]))).toEqual(roundTrips);
    for (const result of results.slice(1)) expect(result.data).toEqual(results[0]!.data);
    expect(JSON.stringify(results[0]!.data).length).toBeGreaterThan(200);
  });
});
