import { makeExecutableSchema } from '@graphql-tools/schema';
import { buildStorageMap, directiveTypeDefs } from 'docjoin';
import { Decimal128, Double, Int32, Long, ObjectId, type Document } from 'mongodb';
import { draftSchema } from '../../../src/infer-schema/draft-schema';
import { objectIdPaths, resolveReferences } from '../../../src/infer-schema/find-references';
import { printDraft } from '../../../src/infer-schema/print-draft';
import { idKey, type CollectionSample, type IndexInfo } from '../../../src/infer-schema/sample-database';
import { candidateKey, snapshotCandidates } from '../../../src/infer-schema/snapshot-candidates';
import { shapeOfDocuments } from '../../../src/infer-schema/value-shape';

/**
 * The drafting step on evidence built in memory: what the database reads would return for these
 * documents (which collection holds each ObjectId as `_id`, the sources of each snapshot candidate).
 */
function draft(collections: Record<string, { documents: Document[]; indexes?: Array<Partial<IndexInfo> & Pick<IndexInfo, 'keys'>>; sampleFailure?: string }>) {
  const samples: CollectionSample[] = Object.entries(collections)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, { documents, indexes = [], sampleFailure }]) => ({
      name,
      documents,
      estimatedCount: documents.length,
      method: sampleFailure === undefined ? ('$sample' as const) : ('find' as const),
      sampleFailure,
      indexes: [{ name: '_id_', keys: [['_id', 1]], unique: false, partial: false }, ...indexes.map((index) => ({ name: index.keys.map(([path, direction]) => `${path}_${String(direction)}`).join('_'), unique: false, partial: false, ...index }))],
    }));
  const shapes = new Map(samples.map((sample) => [sample.name, shapeOfDocuments(sample.documents)]));
  const owners = new Map<string, string[]>();
  for (const sample of samples) for (const document of sample.documents) owners.set(idKey(document._id), [...(owners.get(idKey(document._id)) ?? []), sample.name]);
  const references = resolveReferences(samples.flatMap((sample) => objectIdPaths(sample.name, shapes.get(sample.name)!, sample.documents)), owners);
  const candidates = snapshotCandidates(shapes, references);
  const sources = new Map(
    candidates.map((candidate) => {
      const wanted = new Set(candidate.reference.values.map(idKey));
      const target = samples.find((sample) => sample.name === candidate.reference.target)!;
      return [candidateKey(candidate.collection, candidate.path), new Map(target.documents.filter((document) => wanted.has(idKey(document._id))).map((document) => [idKey(document._id), document]))];
    }),
  );
  const drafted = draftSchema({ sample: { databaseName: 'shop', collections: samples, skipped: ['recent_view'] }, sampleSize: 50, shapes, references, candidates, sources });
  return { sdl: printDraft(drafted), counts: drafted.counts, scalars: drafted.scalars };
}

/** The printed block of one type (its guesses above it included). */
function typeBlock(sdl: string, name: string): string {
  const blocks = sdl.split('\n\n');
  const block = blocks.find((text) => new RegExp(`^(# guess: .*\\n)*type ${name}\\b`).test(text));
  if (!block) throw new Error(`no type ${name} in:\n${sdl}`);
  return block.trimEnd();
}

const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
const day = (n: number) => new Date(Date.UTC(2026, 0, n));

describe('draftSchema: scalars', () => {
  const { sdl, scalars } = draft({
    items: {
      documents: [
        { _id: oid(1), name: 'a', count: new Int32(1), price: new Double(1.5), big: Long.fromString('9000000000'), at: day(1), flag: true, mixed: 'x', 'first-name': 'A', id: 'legacy-1', 'a.b': 1, '': 'blank', empty: [], nothing: null, amount: Decimal128.fromString('9.99'), cost: Decimal128.fromString('0.10'), huge: Long.fromString('9000000000'), tags: ['x'], __v: new Int32(0), ref: oid(99) },
        { _id: oid(2), name: 'b', count: new Int32(2), price: new Int32(2), big: Long.fromNumber(1), at: day(2), mixed: new Int32(3), 'first-name': 'B', id: 'legacy-2', empty: [], nothing: null, amount: Decimal128.fromString('1'), cost: new Int32(3), huge: new Double(0.5), tags: ['y', null], __v: new Int32(0), ref: oid(98) },
      ],
    },
  });

  test('types each key from its values, with a guess where the sample could mislead', () => {
    expect(typeBlock(sdl, 'Item')).toBe(`# guess: fields of 2 sampled of ~2 documents ($sample); non-null (!) where all 2 have the field
type Item @collection(name: "items") {
  id: ID!
  name: String!
  count: Int!
  price: Float!
  # guess: 64-bit integers beyond Int's 32 bits (1 sampled): Long, every digit kept (a string in JSON)
  big: Long!
  at: DateTime!
  # guess: nullable: missing or null in 1 of 2 sampled
  flag: Boolean
  # guess: holds string (1), int (1): String serves them all
  mixed: String!
  # guess: "first-name" is not a GraphQL name (or is taken): read with @path
  first_name: String! @path(path: "first-name")
  # guess: "id" is not a GraphQL name (or is taken): read with @path
  id2: String! @path(path: "id")
  # guess: left out "a.b": a path cannot address an empty key, or one with "." or "$" in it
  # guess: left out "": a path cannot address an empty key, or one with "." or "$" in it
  # guess: left out "empty": an empty array in all 2 sampled that have it, so its type is unknown
  # guess: left out "nothing": null wherever it is present (2 of 2 sampled)
  amount: Decimal!
  # guess: holds int (1), Decimal128 (1): Decimal serves them all exactly (a string in JSON); store one kind
  cost: Decimal!
  # guess: holds long (1), double (1), with 64-bit integers beyond Int's 32 bits (1 sampled): Float, exact up to 2^53
  huge: Float!
  tags: [String]!
  # guess: "__v" is not a GraphQL name (or is taken): read with @path
  _v: Int! @path(path: "__v")
  # guess: ObjectIds not (mostly) found as the _id of any collection: not a reference
  ref: ID!
}`);
  });

  test('passes the static checks of the directives', () => {
    expect(() => buildStorageMap(makeExecutableSchema({ typeDefs: [directiveTypeDefs, sdl] }))).not.toThrow();
  });

  test("declares docjoin's scalars it uses, and says what it did not draft", () => {
    expect(scalars).toEqual(['DateTime', 'Decimal', 'Long']);
    expect(sdl.split('\n').slice(0, 12)).toEqual([
      '# Drafted by `docjoin init --from-mongo` from database "shop", sampling up to 50 documents per collection.',
      '# Each "# guess:" says what was inferred and from what: check it, then delete the comment.',
      '# Not drafted (views, system collections and docjoin\'s own): recent_view.',
      '',
      '"An ISO-8601 date-time, e.g. `2026-11-21T09:30:00.000Z`."',
      'scalar DateTime',
      '',
      '"An exact decimal number (BSON Decimal128, 34 significant digits), as a string: `\\"19.99\\"`."',
      'scalar Decimal',
      '',
      '"A 64-bit integer (BSON long), as a string: JSON numbers are exact only up to 2^53."',
      'scalar Long',
    ]);
  });
});

describe('draftSchema: the sample', () => {
  test('says when the documents came from find in _id order, and why; an empty collection keeps its id', () => {
    const { sdl } = draft({
      events: { documents: [{ _id: 'e1', kind: 'click' }], sampleFailure: "Unrecognized pipeline stage name: '$sample'" },
      drafts: { documents: [] },
    });
    expect(typeBlock(sdl, 'Event')).toBe(`# guess: fields of 1 sampled of ~1 documents (the first 1 in _id order: the server refused $sample (Unrecognized pipeline stage name: '$sample')); non-null (!) where all 1 have the field
type Event @collection(name: "events") {
  id: ID!
  kind: String!
}`);
    expect(typeBlock(sdl, 'Draft')).toBe(`# guess: the collection is empty: only its id
type Draft @collection(name: "drafts") {
  id: ID!
}`);
  });

  test('an _id ID cannot serve is left out, and so is its @find', () => {
    const { sdl } = draft({ pairs: { documents: [{ _id: { a: 1, b: 2 }, n: new Int32(1) }] } });
    expect(typeBlock(sdl, 'Pair')).toContain('  # guess: left out "_id": it holds sub-document (1), which ID cannot serve; no id field and no @find by id\n  n: Int!\n}');
    expect(typeBlock(sdl, 'Query')).toBe('type Query {\n  pairs(first: Int = 20, after: ID): [Pair!]! @list\n}');
  });
});

describe('draftSchema: a reference with a few keys stored as strings', () => {
  const [ada, bob, loans] = [oid(1), oid(2), [oid(10), oid(11), oid(12), oid(13)]];
  const { sdl } = draft({
    members: { documents: [{ _id: ada, name: 'Ada' }, { _id: bob, name: 'Bob' }] },
    loans: {
      documents: [
        { _id: loans[0], memberId: ada },
        { _id: loans[1], memberId: bob },
        { _id: loans[2], memberId: ada },
        { _id: loans[3], memberId: bob.toHexString() },
      ],
      indexes: [{ keys: [['memberId', 1]] }],
    },
  });

  test('is still drafted as a join (and its reverse join), with a guess naming the strings and the update that converts them', () => {
    expect(typeBlock(sdl, 'Loan')).toContain(
      [
        '  # guess: a reference: ObjectId values of memberId found in members._id (2 of 2 sampled); the key stays at memberId',
        '  # guess: 1 sampled value(s) of memberId are strings, not ObjectIds: the join finds nothing for them; convert them: db.loans.updateMany({ "memberId": { $type: "string" } }, [{ $set: { "memberId": { $toObjectId: "$memberId" } } }])',
        '  member: Member @join(localField: "memberId")',
      ].join('\n'),
    );
    expect(typeBlock(sdl, 'Member')).toMatch(/loans.*: \[Loan!\]! @join\(localField: "_id", foreignField: "memberId"/);
  });
});

describe('draftSchema: relations', () => {
  const [ada, bob, profile, post, tag] = [oid(1), oid(2), oid(3), oid(4), oid(5)];
  const { sdl, counts } = draft({
    users: { documents: [{ _id: ada, name: 'Ada', email: 'ada@x.org' }, { _id: bob, name: 'Bob', email: 'bob@x.org' }], indexes: [{ keys: [['email', 1]], unique: true }] },
    profiles: { documents: [{ _id: profile, userId: ada, bio: 'Engines' }], indexes: [{ keys: [['userId', 1]], unique: true }] },
    tags: { documents: [{ _id: tag, label: 'math' }] },
    posts: {
      documents: [
        {
          _id: post,
          authorId: ada,
          editorId: bob,
          createdAt: day(3),
          by: { _id: ada, name: 'Ada' },
          lead: { id: ada, name: 'Ada', role: 'lead' },
          reviewer: { id: bob },
          tagIds: [tag],
          lines: [{ userId: ada, qty: new Int32(2) }],
        },
      ],
      indexes: [{ keys: [['authorId', 1], ['createdAt', -1]] }, { keys: [['editorId', 1]] }, { keys: [['authorId', 1]] }],
    },
  });

  test('a reference is a join, a copy a snapshot, a sub-document with keys of its own embedded', () => {
    expect(typeBlock(sdl, 'Post')).toBe(`# guess: fields of 1 sampled of ~1 documents ($sample); non-null (!) where all 1 have the field
type Post @collection(name: "posts") {
  id: ID!
  # guess: a reference: ObjectId values of authorId found in users._id (1 of 1 sampled); the key stays at authorId
  author: User @join(localField: "authorId")
  # guess: a reference: ObjectId values of editorId found in users._id (1 of 1 sampled); the key stays at editorId
  editor: User @join(localField: "editorId")
  createdAt: DateTime!
  # guess: a snapshot of users: ObjectId values of by._id found in users._id (1 of 1 sampled); name (1 of 1) equals the users document's
  by: User @snapshot(path: "by", fields: ["id", "name"], key: "_id") @join(localField: "by._id") @read(strategy: SNAPSHOT)
  # guess: embedded: a sub-document at lead; not a snapshot: name equals the users document's, but role does not
  lead: Lead! @embedded
  # guess: a reference: the sub-documents hold only their key: ObjectId values of reviewer.id found in users._id (1 of 1 sampled)
  reviewer: User @join(localField: "reviewer.id")
  # guess: a reference: ObjectId values of tagIds found in tags._id (1 of 1 sampled); the key stays at tagIds
  tags: [Tag!]! @join(localField: "tagIds")
  # guess: embedded: an array of sub-documents at lines; not a snapshot: userId references users, but no other key equals the users document's
  lines: [Line!]! @embedded
}`);
    expect(typeBlock(sdl, 'Lead')).toBe(`type Lead {
  # guess: a reference: ObjectId values of lead.id found in users._id (1 of 1 sampled); the key stays at id
  user: User @join(localField: "id")
  name: String!
  role: String!
}`);
    expect(typeBlock(sdl, 'Line')).toContain('  user: User @join(localField: "userId")\n  qty: Int!\n}');
  });

  test('a reference leading an index adds the reverse join, named after the reference when several come from one collection', () => {
    expect(typeBlock(sdl, 'User')).toBe(`# guess: fields of 2 sampled of ~2 documents ($sample); non-null (!) where all 2 have the field
type User @collection(name: "users") {
  id: ID!
  name: String!
  email: String!
  # guess: a reverse join: posts.authorId holds users._id values (1 of 1 sampled) and leads the index authorId_1_createdAt_-1; its pages break ties by _id, so create db.posts.createIndex({ authorId: 1, createdAt: -1, _id: -1 })
  postsByAuthor(first: Int = 20, after: ID): [Post!]! @join(localField: "_id", foreignField: "authorId", sort: "-createdAt")
  # guess: a reverse join: posts.editorId holds users._id values (1 of 1 sampled) and leads the index editorId_1
  postsByEditor(first: Int = 20, after: ID): [Post!]! @join(localField: "_id", foreignField: "editorId")
  # guess: a reverse join: profiles.userId holds users._id values (1 of 1 sampled) and leads the index userId_1, a unique one: at most one each
  profile: Profile @join(localField: "_id", foreignField: "userId")
}`);
    expect(counts).toEqual({ collectionTypes: 4, embeddedTypes: 2, joins: 7, snapshots: 1, reverseJoins: 3, guesses: 17 });
    expect(sdl.match(/^ *# guess:/gm)).toHaveLength(17);
  });

  test('passes the static checks of the directives', () => {
    const storageMap = buildStorageMap(makeExecutableSchema({ typeDefs: [directiveTypeDefs, sdl] }));
    expect(storageMap.relations.get('Post.by')?.defaultStrategy).toBe('snapshot');
    expect(storageMap.relations.get('User.profile')?.shapes.join).toMatchObject({ direction: 'byReference', foreignField: 'userId' });
  });

  test('@find by id and by each unique index (a reference compares by its key), @list for each collection', () => {
    expect(typeBlock(sdl, 'Query')).toBe(`type Query {
  post(id: ID!): Post @find
  posts(first: Int = 20, after: ID): [Post!]! @list
  profile(id: ID!): Profile @find
  profileByUser(user: ID!): Profile @find
  profiles(first: Int = 20, after: ID): [Profile!]! @list
  tag(id: ID!): Tag @find
  tags(first: Int = 20, after: ID): [Tag!]! @list
  user(id: ID!): User @find
  userByEmail(email: String!): User @find
  users(first: Int = 20, after: ID): [User!]! @list
}`);
  });
});

describe('draftSchema: the index a reverse join pages by', () => {
  it('names the index with _id after the order when the one found lacks it, and none when _id is already in it', () => {
    const [ada, post] = [oid(1), oid(2)];
    const guessOf = (keys: Array<[string, number]>) => {
      const { sdl } = draft({ users: { documents: [{ _id: ada, name: 'Ada' }] }, posts: { documents: [{ _id: post, authorId: ada, rank: 1, createdAt: day(1) }], indexes: [{ keys }] } });
      return /# guess: a reverse join: posts\.authorId .*/.exec(typeBlock(sdl, 'User'))?.[0];
    };
    expect(guessOf([['authorId', 1], ['rank', 1], ['createdAt', -1]])).toMatch(/; its pages break ties by _id, so create db\.posts\.createIndex\(\{ authorId: 1, rank: 1, createdAt: -1, _id: -1 \}\)$/);
    expect(guessOf([['authorId', 1], ['rank', -1]])).toMatch(/createIndex\(\{ authorId: 1, rank: -1, _id: -1 \}\)$/);
    expect(guessOf([['authorId', 1], ['_id', 1], ['createdAt', -1]])).toMatch(/leads the index authorId_1__id_1_createdAt_-1$/);
    expect(guessOf([['authorId', 1], ['createdAt', 1], ['_id', 1]])).toMatch(/leads the index authorId_1_createdAt_1__id_1$/);
    expect(guessOf([['authorId', 1]])).toMatch(/leads the index authorId_1$/);
  });
});

describe('draftSchema: names without ASCII letters', () => {
  it('drafts a collection and a reference key named in another script, with names of their own', () => {
    const { sdl } = draft({
      заказы: { documents: [{ _id: oid(1), total: new Int32(3), автор_id: oid(10) }] },
      authors: { documents: [{ _id: oid(10), name: 'Ann' }] },
    });
    expect(typeBlock(sdl, 'Document')).toContain('@collection(name: "заказы")');
    expect(typeBlock(sdl, 'Document')).toMatch(/ Author @join\(localField: "автор_id"\)/);
    expect(typeBlock(sdl, 'Query')).toMatch(/documentList/);
    expect(() => buildStorageMap(makeExecutableSchema({ typeDefs: [directiveTypeDefs, sdl] }))).not.toThrow();
  });
});
