import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObjectId, type Db } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { backfillCopies, reconcileBackfill } from '../../../src/migrate/backfill-copies';
import { MIGRATIONS_COLLECTION } from '../../../src/migrate/migration-marker';
import { redactUri } from '../../../src/observability/redact-secrets';
import { reconcile } from '../../../src/reconcile/reconcile';
import { migrate, migrateProjects, type MigrateProject } from './migrate-project';
import { authorIds, bookIds, BOOKS_SDL, insertBooksCopyingAuthors, WIDENED_BOOKS_SDL } from './books-copying-authors';

/**
 * `docjoin migrate` on a small project in a temp folder: 3 authors, 5 books copying their authors'
 * id and name. Widening the snapshot with thumbnailUrl, resuming an interrupted backfill, dropping it.
 */
const SDL = BOOKS_SDL;
const WIDENED = WIDENED_BOOKS_SDL;

const projects = migrateProjects();

/** A fresh database with the 5 books (book i copies authors i mod 3 and (i+1) mod 3) and a project folder with SDL. */
async function setUp(sdl: string): Promise<MigrateProject> {
  return projects.create(sdl, insertBooksCopyingAuthors);
}

async function snapshotDrift(db: Db, sdl: string): Promise<number> {
  const model = buildWriteModelFromSdl(withDirectiveTypeDefs(sdl));
  return (await reconcile(db, model)).drifted;
}

describe('docjoin migrate --widen', () => {
  it('prints the SDL diff, writes it, fills every copy in batches and reconciles with no drift', async () => {
    const { db, schemaFile, args } = await setUp(SDL);
    const where = `${db.databaseName} on ${redactUri(projects.uri)}`;
    const run = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', '--write', '--batch-size', '2', ...args]);
    expect(run.err).toBe('');
    expect(run.out).toBe(`schema/schema.graphql:9
-    @snapshot(path: "authors", fields: ["id", "name"])
+    @snapshot(path: "authors", fields: ["id", "name", "thumbnailUrl"])
wrote schema/schema.graphql
backfilling Book.authors (thumbnailUrl) in ${where}, batches of 2…
snapshot Book.authors 5 / 5
backfilled Book.authors: 5 scanned, 5 rewritten
reconcile Book.authors: 5 scanned, 0 drifted
`);
    expect(run.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(WIDENED);
    const books = await db.collection('books').find({}, { sort: { _id: 1 } }).toArray();
    expect(books.map((book) => book.authors)).toEqual(bookIds.map((_, i) => [i % 3, (i + 1) % 3].map((n) => ({ id: authorIds[n], name: `Author ${n}`, thumbnailUrl: `https://img.example/${n}.png` }))));
    expect(await snapshotDrift(db, WIDENED)).toBe(0);
    const marker = await db.collection(MIGRATIONS_COLLECTION).findOne({ _id: 'Book.authors' as never });
    expect(marker).toEqual({ _id: 'Book.authors', kind: 'snapshot-backfill', fields: ['thumbnailUrl'], startedAt: expect.any(Date), resumeAfter: bookIds[4], finishedAt: expect.any(Date) });

    // Run again: the schema already copies it, nothing left to fill, and the copies stay trusted.
    const again = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', '--write', ...args]);
    expect(again.out).toBe(`schema/schema.graphql: Book.authors already copies thumbnailUrl; no SDL change
backfilling Book.authors (thumbnailUrl) in ${where}, batches of 500…
snapshot Book.authors 5 / 5
Book.authors was finished on ${(marker!.finishedAt as Date).toISOString()}: this pass repairs its copies, which gateways go on trusting
backfilled Book.authors: 5 scanned, 0 rewritten
reconcile Book.authors: 5 scanned, 0 drifted
`);
    expect(again.code).toBe(0);
  });

  it('copies a field the target lacks as null, so a read the copies fit joins nothing', async () => {
    const sdl = SDL.replace('thumbnailUrl: String!', 'thumbnailUrl: String!\n  nick: String');
    const { db, args } = await setUp(sdl);
    await db.collection('authors').updateOne({ _id: authorIds[1] }, { $set: { nick: 'One' } });
    const run = await migrate(['--widen', 'Book.authors', '--fields', 'nick', '--write', ...args]);
    expect([run.code, run.err]).toEqual([0, '']);
    const books = await db.collection('books').find({}, { sort: { _id: 1 } }).toArray();
    expect(books[0]!.authors).toEqual([
      { id: authorIds[0], name: 'Author 0', nick: null },
      { id: authorIds[1], name: 'Author 1', nick: 'One' },
    ]);
    const widened = sdl.replace('fields: ["id", "name"]', 'fields: ["id", "name", "nick"]');
    const read = await projects.read(db, widened, '{ books { authors { name nick } } }');
    expect([read.errors, read.cost?.roundTrips]).toEqual([undefined, 1]);
  });

  it('names a copied field that looks like personal data, and every collection it is copied into', async () => {
    const withEmail = SDL.replace('thumbnailUrl: String!', 'thumbnailUrl: String!\n  email: String').replace(
      'type Author',
      `type Shelf @collection(name: "shelves") {
  id: ID!
  newest: [Book!]! @embedded @join(collection: "books", localField: "_id", foreignField: "shelfId", sort: "-title", limit: 2) @read(strategy: EMBEDDED)
}

type Author`,
    );
    const { db, args } = await setUp(withEmail);
    await db.createCollection('shelves');
    await db.collection('authors').updateMany({}, [{ $set: { email: { $concat: ['$name', '@example.com'] } } }]);
    const run = await migrate(['--widen', 'Book.authors', '--fields', 'email', '--write', ...args]);
    expect(run.err).toBe('');
    expect(run.out.split('\n').filter((line) => line.startsWith('personal data') || line.startsWith('backfilling')).map((line) => line.split(' in ')[0])).toEqual([
      'personal data: copies email (e-mail address) into books (5 documents) and shelves (0 documents): more places an erasure or an access request must reach, and readers of them see them',
      'backfilling Book.authors (email)',
    ]);
    expect(run.code).toBe(0);
  });

  it('without --write is a dry run: it prints the SDL change and what the backfill would rewrite, and writes nothing', async () => {
    const { db, schemaFile, args } = await setUp(SDL);
    const booksBefore = await db.collection('books').find({}, { sort: { _id: 1 } }).toArray();
    const dry = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', '--batch-size', '2', ...args]);
    expect(dry.err).toBe('');
    expect(dry.out).toBe(`schema/schema.graphql:9
-    @snapshot(path: "authors", fields: ["id", "name"])
+    @snapshot(path: "authors", fields: ["id", "name", "thumbnailUrl"])
(not written: pass --write to apply it)
dry run: nothing is written (--write applies the change)
reading what backfilling Book.authors (thumbnailUrl) would change in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 2…
snapshot Book.authors 5 / 5
would backfill Book.authors: 5 scanned, 5 to rewrite (3 batches)
`);
    expect(dry.code).toBe(0);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    expect(await db.collection('books').find({}, { sort: { _id: 1 } }).toArray()).toEqual(booksBefore);
    expect(await db.collection(MIGRATIONS_COLLECTION).countDocuments()).toBe(0);
  });

  it('a field the target lacks is one line, exit 2; an unreachable MongoDB is one line, exit 1', async () => {
    const { schemaFile, args } = await setUp(SDL);
    const bad = await migrate(['--widen', 'Book.authors', '--fields', 'avatar', ...args]);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('migrate: Invalid storage directives: - Book.authors: @snapshot(fields:) names "avatar", which is not a field of Author; its fields are id, name, thumbnailUrl\n');
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    const unreachable = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', ...args.slice(0, 2), '--mongo-uri', 'mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=200']);
    expect(unreachable.out).toContain('(not written: pass --write to apply it)\n');
    expect(unreachable.err).toMatch(/^migrate: reading Book.authors in docjoin on mongodb:\/\/127\.0\.0\.1:9\/\?serverSelectionTimeoutMS=200 failed: .+\n$/);
    expect(unreachable.code).toBe(1);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
  });

  it('with --write, checks the database before writing the SDL: a database holding none of the collections, or none reached, leaves the schema as it was', async () => {
    const { schemaFile, args } = await setUp(SDL);
    const typo = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', '--write', ...args.slice(0, 4), '--db', 'docjion']);
    expect(typo.err).toMatch(/^migrate: database "docjion" has none of the schema's 2 collections \(books, authors\)\. This server has: .+\. Set the database \(MONGODB_DB, --db, or mongodb\.db in the config\), or load data \(docjoin seed\); nothing was written\n$/);
    expect(typo.code).toBe(2);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    const unreachable = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', '--write', ...args.slice(0, 2), '--mongo-uri', 'mongodb://127.0.0.1:9/?serverSelectionTimeoutMS=200']);
    expect(unreachable.code).toBe(1);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
  });

  it('resumes after a kill: the rerun reads on after resumeAfter and finishes', async () => {
    const { db, args } = await setUp(WIDENED);
    const model = buildWriteModelFromSdl(withDirectiveTypeDefs(WIDENED));
    const backfill = reconcileBackfill('Book.authors', 'snapshot-backfill', model, ['Book.authors'], ['thumbnailUrl']);
    const killed = new Error('killed');
    const seen: number[] = [];
    await expect(
      backfillCopies(db, backfill, {
        batchSize: 2,
        onBatch: (_lastId, report) => {
          seen.push(report.scanned);
          throw killed;
        },
      }),
    ).rejects.toBe(killed);
    expect(seen).toEqual([2]);
    const marker = await db.collection(MIGRATIONS_COLLECTION).findOne({ _id: 'Book.authors' as never });
    expect(marker).toEqual({ _id: 'Book.authors', kind: 'snapshot-backfill', fields: ['thumbnailUrl'], startedAt: expect.any(Date), resumeAfter: bookIds[1] });
    expect(await db.collection('books').countDocuments({ 'authors.thumbnailUrl': { $exists: true } })).toBe(2);
    expect(await snapshotDrift(db, WIDENED)).toBe(3);

    // The rerun through the command: the schema already copies thumbnailUrl, the marker says where to go on.
    const rerun = await migrate(['--widen', 'Book.authors', '--fields', 'thumbnailUrl', '--write', '--batch-size', '2', ...args]);
    expect(rerun.err).toBe('');
    expect(rerun.out).toContain(`resumed after _id ${bookIds[1]!.toHexString()}
backfilled Book.authors: 3 scanned, 3 rewritten
reconcile Book.authors: 5 scanned, 0 drifted
`);
    expect(rerun.code).toBe(0);
    const finished = await db.collection(MIGRATIONS_COLLECTION).findOne({ _id: 'Book.authors' as never });
    expect(finished).toEqual({ ...marker, resumeAfter: bookIds[4], finishedAt: expect.any(Date) });
    expect(await snapshotDrift(db, WIDENED)).toBe(0);
  });

  it('takes the change from docjoin advise --json', async () => {
    const { db, folder, args } = await setUp(SDL);
    const adviceFile = join(folder, 'advice.json');
    writeFileSync(adviceFile, JSON.stringify({ advice: { workload: { queries: 10, mutations: 0 }, fields: [{ coordinate: 'Book.authors', kind: 'widen-snapshot', change: 'add thumbnailUrl', snapshotFields: ['id', 'name', 'thumbnailUrl'] }] } }));
    const run = await migrate(['--advice', adviceFile, '--field', 'Book.authors', '--write', ...args]);
    expect(run.out).toContain('+    @snapshot(path: "authors", fields: ["id", "name", "thumbnailUrl"])\n');
    expect(run.out).toContain('backfilling Book.authors (thumbnailUrl)');
    expect(run.out).toContain('backfilled Book.authors: 5 scanned, 5 rewritten\n');
    expect(run.code).toBe(0);
    expect(await snapshotDrift(db, WIDENED)).toBe(0);
    const keep = await migrate(['--advice', adviceFile, '--field', 'Book.title', ...args]);
    expect(keep).toEqual({ code: 2, out: '', err: `migrate: --advice ${adviceFile} has no advice for Book.title\n` });
  });
});

describe('docjoin migrate --drop-snapshot', () => {
  it('a dry run refuses while the schema declares the snapshot, --write writes its removal and stops there, and the copied fields go once it is gone', async () => {
    const { db, schemaFile, args } = await setUp(SDL);
    const refused = await migrate(['--drop-snapshot', 'Book.authors', ...args]);
    expect(refused.err).toBe('migrate: Book.authors still declares @snapshot in schema/schema.graphql; apply the SDL change (--write), deploy it, then run this again to drop the copied fields\n');
    expect(refused.code).toBe(2);
    expect(readFileSync(schemaFile, 'utf8')).toBe(SDL);
    const written = await migrate(['--drop-snapshot', 'Book.authors', '--write', ...args]);
    expect(written.out).toBe(`schema/schema.graphql:9
-    @snapshot(path: "authors", fields: ["id", "name"])
schema/schema.graphql:10
-    @read(strategy: SNAPSHOT)
wrote schema/schema.graphql
deploy it, then run this again to drop Book.authors's copied fields
`);
    expect(written.err).toBe('');
    expect(written.code).toBe(0);
    expect(await db.collection('books').countDocuments({ 'authors.name': { $exists: true } })).toBe(5);

    // The schema file no longer declares it (the change above was written): a dry run says what would go, then the copies go.
    const dry = await migrate(['--drop-snapshot', 'Book.authors', '--batch-size', '2', ...args]);
    expect(dry.out).toBe(`schema/schema.graphql: Book.authors declares no @snapshot; no SDL change
dry run: nothing is written (--write applies the change)
reading what dropping Book.authors's copied fields would change in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 2…
snapshot Book.authors 5 / 5
would drop Book.authors's copied fields: 5 scanned, 5 to rewrite
`);
    expect(dry.code).toBe(0);
    expect(await db.collection('books').countDocuments({ 'authors.name': { $exists: true } })).toBe(5);
    const dropped = await migrate(['--drop-snapshot', 'Book.authors', '--write', '--batch-size', '2', ...args]);
    expect(dropped.err).toBe('');
    expect(dropped.out).toBe(`schema/schema.graphql: Book.authors declares no @snapshot; no SDL change
dropping Book.authors's copied fields in ${db.databaseName} on ${redactUri(projects.uri)}, batches of 2…
snapshot Book.authors 5 / 5
dropped Book.authors's copied fields: 5 scanned, 5 rewritten
`);
    expect(dropped.code).toBe(0);
    const books = await db.collection('books').find({}, { sort: { _id: 1 } }).toArray();
    expect(books.map((book) => book.authors)).toEqual(bookIds.map((_, i) => [i % 3, (i + 1) % 3].map((n) => ({ id: authorIds[n] }))));
    expect(readFileSync(schemaFile, 'utf8')).not.toContain('@snapshot');
    expect(await snapshotDrift(db, readFileSync(schemaFile, 'utf8'))).toBe(0);
  });

  const AUTHORS = 'type Query { authors: [Author!]! @list }\ntype Author @collection(name: "authors") { id: ID! name: String! }\n';
  it.each([
    [
      'at a nested path',
      'Post.author',
      'type Post @collection(name: "posts") {\n  id: ID!\n  author: Author @snapshot(path: "meta.author", fields: ["id", "name"]) @join(localField: "meta.author.id") @read(strategy: SNAPSHOT)\n}\n',
      'at the nested path "meta.author"',
    ],
    [
      'inside an embedded type',
      'OrderLine.author',
      'type Order @collection(name: "orders") { id: ID! lines: [OrderLine!]! @embedded }\ntype OrderLine {\n  quantity: Int!\n  author: Author @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)\n}\n',
      'inside the documents of another type (OrderLine has no @collection)',
    ],
  ])('refuses a snapshot %s before writing the SDL: a second step could not find its copies', async (_, coordinate, types, where) => {
    const sdl = `${AUTHORS}${types}`;
    const { schemaFile, args } = await projects.create(sdl, async () => undefined);
    const refused = await migrate(['--drop-snapshot', coordinate, '--write', ...args]);
    expect([refused.code, refused.err]).toEqual([
      2,
      `migrate: ${coordinate}: --drop-snapshot drops copies kept at a top-level field of their type's own documents, and these are ${where}; nothing was written: with the @snapshot removed and deployed, $unset its copied fields with an update of your own\n`,
    ]);
    expect(readFileSync(schemaFile, 'utf8')).toBe(sdl);
  });

  it("rebuilds the bounded arrays that keep whole documents of the snapshot's type, so their entries drop the copies too", async () => {
    const HOSTS = /* GraphQL */ `type Query {
  hosts: [Host!]! @list
}

type Host @collection(name: "hosts") {
  id: ID!
  name: String!
  recentLogs: [LogMessage!]!
    @embedded
    @join(collection: "logMessages", localField: "_id", foreignField: "host.id", sort: "-time", limit: 2)
    @read(strategy: EMBEDDED)
}

type LogMessage @collection(name: "logMessages") {
  id: ID!
  time: Int!
  host: Host
    @join(localField: "host.id")
}

type Alert @collection(name: "alerts") {
  id: ID!
  host: Host
    @snapshot(path: "host", fields: ["id", "name"])
    @join(localField: "host.id")
    @read(strategy: SNAPSHOT)
}
`;
    const hostId = new ObjectId();
    // Another snapshot's drift is reconcile's to repair, not the drop's.
    const staleAlert = { _id: new ObjectId(), host: { id: hostId, name: 'old name' } };
    const logs = [1, 2].map((time) => ({ _id: new ObjectId(), time, host: { id: hostId, name: 'h1' } }));
    const { db, args } = await projects.create(HOSTS, async (fresh) => {
      await fresh.collection('hosts').insertOne({ _id: hostId, name: 'h1', recentLogs: [logs[1], logs[0]] });
      await fresh.collection('logMessages').insertMany(logs.map((log) => ({ ...log })));
      await fresh.collection('alerts').insertOne({ ...staleAlert });
    });
    const dry = await migrate(['--drop-snapshot', 'LogMessage.host', ...args]);
    expect(dry.out).toContain("would drop LogMessage.host's copied fields: 2 scanned, 2 to rewrite\n");
    expect(dry.out).toContain('would then rebuild Host.recentLogs, whose LogMessage documents hold the copies\n');
    const dropped = await migrate(['--drop-snapshot', 'LogMessage.host', '--write', ...args]);
    expect([dropped.code, dropped.err]).toEqual([0, '']);
    expect(dropped.out).toContain('rebuilt Host.recentLogs, whose LogMessage documents held the copies: 1 scanned, 1 rewritten\n');
    expect(dropped.out).not.toContain('Alert.host');
    expect((await db.collection('hosts').findOne({ _id: hostId }))?.recentLogs.map((entry: { host: unknown }) => entry.host)).toEqual([{ id: hostId }, { id: hostId }]);
    expect(await db.collection('alerts').findOne({ _id: staleAlert._id })).toEqual(staleAlert);
    expect(await snapshotDrift(db, HOSTS)).toBe(1);
  });

  it('removes only the fields a copy kept of its target, says which it kept, and refuses a path another field reads: that is data, not copies', async () => {
    const joinedSdl = SDL.replace(/\n    @snapshot\(path: "authors", fields: \["id", "name"\]\)|\n    @read\(strategy: SNAPSHOT\)/g, '');
    const { db, args } = await setUp(joinedSdl);
    await db.collection('books').updateMany({}, { $set: { 'authors.$[].role': 'editor' } });
    // One book's copies hold 20 more names: the note lists the first 20 it finds, and says there are more.
    const extra = Array.from({ length: 20 }, (_, i) => `x${String(i + 1).padStart(2, '0')}`);
    await db.collection('books').updateOne({ _id: bookIds[0] }, { $set: Object.fromEntries(extra.map((name) => [`authors.$[].${name}`, 1])) });
    const dropped = await migrate(['--drop-snapshot', 'Book.authors', '--write', ...args]);
    expect(dropped.code).toBe(0);
    const listed = ['role', ...extra.slice(0, 19)];
    expect(dropped.out.split('\n').slice(-2)).toEqual([
      `kept in the copies, as Author declares no such fields: ${listed.join(', ')}, and more (only the first 20 names found are listed). If an older schema copied them (personal data, perhaps), $unset ${listed.map((name) => `"authors.$[].${name}"`).join(', ')} by hand`,
      '',
    ]);
    const books = await db.collection('books').find({}, { sort: { _id: 1 } }).toArray();
    const extras = Object.fromEntries(extra.map((name) => [name, 1]));
    expect(books.map((book) => book.authors)).toEqual(bookIds.map((_, i) => [i % 3, (i + 1) % 3].map((n) => ({ id: authorIds[n], role: 'editor', ...(i === 0 && extras) }))));

    const embeddedSdl = `${joinedSdl}
extend type Book { credits: [Credit!]! @embedded(path: "authors") }
type Credit { id: ID! name: String! }
`;
    const other = await setUp(embeddedSdl);
    const refused = await migrate(['--drop-snapshot', 'Book.authors', '--write', ...other.args]);
    expect(refused.err).toBe('migrate: Book.authors: "authors" is read by Book.credits, so it holds that field\'s data, not copies of Author; there is nothing to drop\n');
    expect(refused.code).toBe(2);
    expect(await other.db.collection('books').countDocuments({ 'authors.name': { $exists: true } })).toBe(5);
  });
});
