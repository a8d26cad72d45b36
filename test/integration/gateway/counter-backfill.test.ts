import { ObjectId, type Db } from 'mongodb';
import { backfillFixture } from './support/backfill-fixture';

/**
 * A `@counter` declared before it was backfilled: a parent without one is counted by query, in one
 * aggregate for the level; while the `docjoin_migrations` marker says the backfill runs every parent
 * is (a value a write started from nothing is not trusted), and the estimate counts that aggregate.
 * Both kinds of counter: children pointing at the parent, and the truth side of an inverse (books
 * listing their authors in `authors.id`).
 */
const SDL = /* GraphQL */ `
  type Query {
    posts(first: Int = 100): [Post!]! @list
    authors(first: Int = 100): [Author!]! @list
  }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    commentCount: Int! @counter(of: "Post.comments")
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "_id")
  }
  type Comment @collection(name: "comments") { id: ID! text: String! }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    countOfBooks: Int! @counter(of: "Author.books")
    books: [Book!]! @join(localField: "bookIds") @inverse(of: "Book.authors")
  }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
  }
`;

const posts = ['none', 'one', 'three'].map((title) => ({ _id: new ObjectId(), title }));
const comments = [...[1].map(() => posts[1]!), ...[1, 2, 3].map(() => posts[2]!)].map((post, n) => ({ _id: new ObjectId(), postId: post._id, text: `#${n}` }));
const authors = ['Ann', 'Bo'].map((name) => ({ _id: new ObjectId(), name }));
// Ann wrote both books, Bo one.
const books = [[0, 1], [0]].map((indexes, n) => ({ _id: new ObjectId(), title: `Book ${n}`, authors: indexes.map((i) => ({ id: authors[i]!._id, name: authors[i]!.name })) }));
const bookIdsOf = (author: (typeof authors)[number]) => books.filter((book) => book.authors.some((copy) => copy.id.equals(author._id))).map((book) => book._id);

const POSTS = '{ posts { title commentCount } }';
const POSTS_EXPECTED = { posts: [{ title: 'none', commentCount: 0 }, { title: 'one', commentCount: 1 }, { title: 'three', commentCount: 3 }] };
const AUTHORS = '{ authors { name countOfBooks } }';
const AUTHORS_EXPECTED = { authors: [{ name: 'Ann', countOfBooks: 2 }, { name: 'Bo', countOfBooks: 1 }] };
const marker = (id: string, finished: boolean) => ({ _id: id, kind: 'counter-backfill', startedAt: new Date('2024-01-01T00:00:00Z'), resumeAfter: null, ...(finished && { finishedAt: new Date('2024-01-02T00:00:00Z') }) });

const fixture = backfillFixture(SDL);

/** Posts and authors with `counters` (by index, undefined: none stored), and these markers. */
async function seed(counters: { posts: ReadonlyArray<number | undefined>; authors: ReadonlyArray<number | undefined> }, markers: readonly object[]): Promise<Db> {
  const db = fixture.freshDb('counter_backfill');
  await db.collection('comments').insertMany(comments.map((comment) => ({ ...comment })));
  await db.collection('comments').createIndex({ postId: 1, _id: 1 });
  await db.collection('books').insertMany(books.map((book) => ({ ...book })));
  await db.collection('books').createIndex({ 'authors.id': 1 });
  await db.collection('posts').insertMany(posts.map((post, i) => ({ ...post, ...(counters.posts[i] !== undefined && { commentCount: counters.posts[i] }) })));
  await db.collection('authors').insertMany(authors.map((author, i) => ({ ...author, bookIds: bookIdsOf(author), ...(counters.authors[i] !== undefined && { countOfBooks: counters.authors[i] }) })));
  await fixture.addMarkers(db, markers);
  return db;
}


it('counts every parent by query while the backfill runs, in one aggregate per level, with the estimate counting it', async () => {
  // Post "three" holds 1: a new comment's $inc started its counter from nothing before the backfill came.
  const db = await seed({ posts: [undefined, 1, 1], authors: [1, undefined] }, [marker('Post.commentCount', false), marker('Author.countOfBooks', false)]);
  const gateway = await fixture.serve(db);
  try {
    const posted = await gateway.execute({ query: POSTS });
    expect(posted.errors).toBeUndefined();
    expect(posted.data).toEqual(POSTS_EXPECTED);
    expect(posted.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(posted.cost!.fields['Post.commentCount']).toMatchObject({ strategy: 'join', roundTrips: 1, keys: 3 });

    const authored = await gateway.execute({ query: AUTHORS });
    expect(authored.errors).toBeUndefined();
    expect(authored.data).toEqual(AUTHORS_EXPECTED);
    expect(authored.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(authored.cost!.fields['Author.countOfBooks']).toMatchObject({ strategy: 'join', roundTrips: 1, keys: 2 });
  } finally {
    await gateway.stop();
  }
});

it('reads the stored counters once the marker is finished', async () => {
  const db = await seed({ posts: [0, 1, 3], authors: [2, 1] }, [marker('Post.commentCount', true)]);
  const gateway = await fixture.serve(db);
  try {
    const posted = await gateway.execute({ query: POSTS });
    expect(posted.data).toEqual(POSTS_EXPECTED);
    expect(posted.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    expect(posted.cost!.fields['Post.commentCount']).toBeUndefined();
    const authored = await gateway.execute({ query: AUTHORS });
    expect(authored.data).toEqual(AUTHORS_EXPECTED);
    expect(authored.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
  } finally {
    await gateway.stop();
  }
});
