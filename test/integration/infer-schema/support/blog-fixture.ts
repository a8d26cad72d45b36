import { Double, Int32, ObjectId, type Db } from 'mongodb';

/**
 * A small database shaped like the demo: people with embedded addresses and an array of task ids,
 * tasks, posts keeping a snapshot of their author, and comments pointing at their post through an
 * indexed postId. Fixed ids and dates, so a draft of it is always the same.
 */
export const ids = {
  ada: new ObjectId('650000000000000000000001'),
  grace: new ObjectId('650000000000000000000002'),
  alan: new ObjectId('650000000000000000000003'),
  notes: new ObjectId('650000000000000000000011'),
  numbers: new ObjectId('650000000000000000000012'),
  compilers: new ObjectId('650000000000000000000013'),
  write: new ObjectId('650000000000000000000021'),
  review: new ObjectId('650000000000000000000022'),
  ship: new ObjectId('650000000000000000000023'),
  c1: new ObjectId('650000000000000000000031'),
  c2: new ObjectId('650000000000000000000032'),
  c3: new ObjectId('650000000000000000000033'),
  c4: new ObjectId('650000000000000000000034'),
} as const;

const day = (n: number) => new Date(Date.UTC(2026, 0, n, 9, 30));

export async function seedBlog(db: Db): Promise<void> {
  await db.collection('people').insertMany([
    { _id: ids.ada, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', addresses: [{ street: '12 St James Sq', city: 'London', zip: 'SW1' }], taskIds: [ids.write, ids.review] },
    { _id: ids.grace, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', nickname: 'Amazing Grace', addresses: [], taskIds: [ids.ship] },
    { _id: ids.alan, firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com', addresses: [{ street: 'Bletchley Park', city: 'Milton Keynes', zip: 'MK3' }, { street: 'King\u2019s College', city: 'Cambridge', zip: 'CB2' }], taskIds: [] },
  ]);
  await db.collection('people').createIndex({ email: 1 }, { unique: true });
  await db.collection('tasks').insertMany([
    { _id: ids.write, description: 'Write the notes', due: day(10), done: true },
    { _id: ids.review, description: 'Review the numbers', due: day(20), done: false },
    { _id: ids.ship, description: 'Ship the compiler', due: day(30), done: false },
  ]);
  const author = (id: ObjectId, firstName: string, lastName: string) => ({ id, firstName, lastName });
  await db.collection('posts').insertMany([
    { _id: ids.notes, title: 'Notes', body: 'On the Analytical Engine.', createdAt: day(1), rating: new Double(4.5), views: new Int32(120), tags: ['engines'], author: author(ids.ada, 'Ada', 'Lovelace') },
    { _id: ids.numbers, title: 'Bernoulli numbers', body: 'A program.', createdAt: day(2), rating: new Double(5), views: new Int32(80), tags: ['math', 'programs'], author: author(ids.ada, 'Ada', 'Lovelace') },
    { _id: ids.compilers, title: 'Compilers', body: 'A-0.', createdAt: day(3), rating: new Double(3.5), views: new Int32(95), tags: [], author: author(ids.grace, 'Grace', 'Hopper') },
  ]);
  await db.collection('comments').insertMany([
    { _id: ids.c1, postId: ids.notes, author: 'Charles', comment: 'Splendid.', createdAt: day(4) },
    { _id: ids.c2, postId: ids.notes, author: 'Mary', comment: 'Indeed.', createdAt: day(5) },
    { _id: ids.c3, postId: ids.numbers, author: 'Charles', comment: 'Note G!', createdAt: day(6) },
    { _id: ids.c4, postId: ids.compilers, author: 'Alan', comment: 'Useful.', createdAt: day(7) },
  ]);
  await db.collection('comments').createIndex({ postId: 1, createdAt: -1 });
}

/**
 * The one warning the draft starts with: the comments' index leads with the post's key and keeps the
 * newest first, but not the _id tie-break of that order, so each page finishes its sort in memory.
 */
export const BLOG_ORDER_WARNING =
  'Post.comments: no index serves its order { createdAt: -1, _id: -1 } for each parent; create one with db.comments.createIndex({ postId: 1, createdAt: -1, _id: -1 })';

/** What `docjoin init --from-mongo` drafts from a database seedBlog filled (any sample size above 4 documents). */
export const blogDraft = (dbName: string, sampleSize = 100): string => `# Drafted by \`docjoin init --from-mongo\` from database "${dbName}", sampling up to ${sampleSize} documents per collection.
# Each "# guess:" says what was inferred and from what: check it, then delete the comment.

"An ISO-8601 date-time, e.g. \`2026-11-21T09:30:00.000Z\`."
scalar DateTime

type Query {
  comment(id: ID!): Comment @find
  comments(first: Int = 20, after: ID): [Comment!]! @list
  person(id: ID!): Person @find
  personByEmail(email: String!): Person @find
  people(first: Int = 20, after: ID): [Person!]! @list
  post(id: ID!): Post @find
  posts(first: Int = 20, after: ID): [Post!]! @list
  task(id: ID!): Task @find
  tasks(first: Int = 20, after: ID): [Task!]! @list
}

# guess: fields of 4 sampled of ~4 documents ($sample); non-null (!) where all 4 have the field
type Comment @collection(name: "comments") {
  id: ID!
  # guess: a reference: ObjectId values of postId found in posts._id (3 of 3 sampled); the key stays at postId
  post: Post @join(localField: "postId")
  author: String!
  comment: String!
  createdAt: DateTime!
}

# guess: fields of 3 sampled of ~3 documents ($sample); non-null (!) where all 3 have the field
type Person @collection(name: "people") {
  id: ID!
  firstName: String!
  lastName: String!
  email: String!
  # guess: embedded: an array of sub-documents at addresses
  addresses: [Address!]! @embedded
  # guess: a reference: ObjectId values of taskIds found in tasks._id (3 of 3 sampled); the key stays at taskIds
  tasks: [Task!]! @join(localField: "taskIds")
  # guess: nullable: missing or null in 2 of 3 sampled
  nickname: String
}

type Address {
  street: String!
  city: String!
  zip: String!
}

# guess: fields of 3 sampled of ~3 documents ($sample); non-null (!) where all 3 have the field
type Post @collection(name: "posts") {
  id: ID!
  title: String!
  body: String!
  createdAt: DateTime!
  rating: Float!
  views: Int!
  tags: [String!]!
  # guess: a snapshot of people: ObjectId values of author.id found in people._id (2 of 2 sampled); firstName (3 of 3), lastName (3 of 3) equal the people document's
  author: Person @snapshot(path: "author", fields: ["id", "firstName", "lastName"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
  # guess: a reverse join: comments.postId holds posts._id values (3 of 3 sampled) and leads the index postId_1_createdAt_-1; its pages break ties by _id, so create db.comments.createIndex({ postId: 1, createdAt: -1, _id: -1 })
  comments(first: Int = 20, after: ID): [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
}

# guess: fields of 3 sampled of ~3 documents ($sample); non-null (!) where all 3 have the field
type Task @collection(name: "tasks") {
  id: ID!
  description: String!
  due: DateTime!
  done: Boolean!
}
`;
