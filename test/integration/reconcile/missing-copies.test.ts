import { ObjectId, type Db } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { MIGRATIONS_COLLECTION } from '../../../src/migrate/migration-marker';
import { reconcileVerdict } from '../../../src/reconcile/format-report';
import { reconcile } from '../../../src/reconcile/reconcile';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/**
 * Copies that are not there, or that point nowhere: 3 reviews copying their customer's name into a
 * non-null snapshot. Reconcile's verdict, text and exit code agree in every case, and a review a
 * gateway on the old schema wrote after `docjoin migrate` moved the key (its marker's `from`) is drift
 * that --fix repairs.
 */
const SDL = /* GraphQL */ `type Query {
  reviews: [Review!]! @list
}

type Review @collection(name: "reviews") {
  id: ID!
  stars: Int!
  customer: Customer!
    @snapshot(path: "customer", fields: ["id", "name"])
    @join(localField: "customer.id")
    @read(strategy: SNAPSHOT)
}

type Customer @collection(name: "customers") {
  id: ID!
  name: String!
}
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const customerIds = [1, 2].map((n) => new ObjectId(`6955b90000000000000000d${n}`));
const reviewIds = [1, 2, 3].map((n) => new ObjectId(`6955b90000000000000000e${n}`));

let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
}, 60_000);
afterAll(() => mongo?.stop());

/** A fresh database with the 2 customers and the 3 reviews `review(n)` returns (review n of customer n mod 2). */
async function seed(review: (n: number) => Record<string, unknown>): Promise<Db> {
  const db = mongo.freshDb('missing_copies');
  await db.collection('customers').insertMany(customerIds.map((_id, n) => ({ _id, name: `Customer ${n}` })));
  await db.collection('reviews').insertMany(reviewIds.map((_id, n) => ({ _id, stars: n + 1, ...review(n) })));
  return db;
}
const copyOf = (n: number) => ({ customer: { id: customerIds[n % 2], name: `Customer ${n % 2}` } });

async function verdict(db: Db, fix = false) {
  const report = await reconcile(db, model, { fix });
  return { check: report.checks[0]!, mismatches: report.mismatches, ...reconcileVerdict(report) };
}

describe("reconcile's verdict on copies that are missing or point nowhere", () => {
  it('whole copies: no drift, exit 0', async () => {
    const db = await seed(copyOf);
    expect(await verdict(db)).toMatchObject({ text: 'No drift.', exitCode: 0, mismatches: [], check: { scanned: 3, drifted: 0, dangling: 0, missing: 0 } });
  });

  it('a copy whose customer was deleted dangles: reported, exit 3, and --fix says it cannot repair it', async () => {
    const db = await seed(copyOf);
    await db.collection('customers').deleteOne({ _id: customerIds[1] });
    const found = await verdict(db);
    expect(found).toMatchObject({ exitCode: 3, check: { drifted: 0, dangling: 1, missing: 0 } });
    expect(found.text).toBe('No drift; left wrong, which --fix cannot repair: 1 copy points at no source document (delete or re-point those parents).');
    expect((await verdict(db, true)).exitCode).toBe(3);
  });

  it('copies that hold no keys all dangle: not reconciled, exit 1, never "No drift."', async () => {
    const db = await seed((n) => ({ customer: { name: `Customer ${n % 2}` }, customerId: customerIds[n % 2] }));
    const found = await verdict(db);
    expect(found).toMatchObject({ exitCode: 1, check: { entries: 3, dangling: 3 } });
    expect(found.text).toBe('Not reconciled: the data does not look like what the schema describes (1 reason below).');
    expect(found.mismatches).toEqual(['every one of the 3 Review.customer copies points at no customers document: are the keys kept inside the copies, and is this the database the schema describes?']);
  });

  it('a snapshot never backfilled: no review holds a copy, exit 1, naming the migration', async () => {
    const db = await seed((n) => ({ customerId: customerIds[n % 2] }));
    const found = await verdict(db);
    expect(found).toMatchObject({ exitCode: 1, check: { scanned: 3, entries: 0, missing: 3 } });
    expect(found.mismatches).toEqual([
      'no reviews document holds a Review.customer copy (3 missing): is this the database the schema describes? If the snapshot was never backfilled and its key still sits in an old reference, put the plain @join on it back and run docjoin migrate --add-snapshot Review.customer --fields … --write',
    ]);
  });

  it('one review without its required copy and nothing to fill it from: missing, exit 3', async () => {
    const db = await seed((n) => (n === 2 ? {} : copyOf(n)));
    const found = await verdict(db);
    expect(found).toMatchObject({ exitCode: 3, mismatches: [], check: { drifted: 0, missing: 1 } });
    expect(found.text).toBe('No drift; left wrong, which --fix cannot repair: 1 copy is missing (a required one absent, or no document where a copy goes) with no key saying what to copy (write those parents again, or backfill with docjoin migrate).');
  });

  it('a nullable snapshot no review holds a copy of: a warning, not a failure', async () => {
    const optional = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL.replace('customer: Customer!', 'customer: Customer')));
    const db = await seed((n) => ({ customerId: customerIds[n % 2] }));
    const report = await reconcile(db, optional);
    expect(report.checks[0]).toMatchObject({ scanned: 3, entries: 0, missing: 0 });
    expect(report.warnings).toEqual([
      'no reviews document holds a Review.customer copy: if the snapshot was never backfilled and its key still sits in an old reference, put the plain @join on it back and run docjoin migrate --add-snapshot Review.customer --fields … --write',
    ]);
    expect(reconcileVerdict(report)).toEqual({ text: 'No drift (1 warning below).', exitCode: 0 });
  });

  it("after a key move, a review the old schema wrote (its reference, no copy) is drift that --fix repairs from the migration's reference", async () => {
    // Review 2 has no copy (an old gateway wrote it), review 0 a null one (a migration pass ran while its
    // reference was unset): the field is required, so neither null nor absent is a "none" to keep.
    const db = await seed((n) => (n === 2 ? { customerId: customerIds[0] } : n === 0 ? { customer: null, customerId: customerIds[0] } : { ...copyOf(n), customerId: customerIds[n % 2] }));
    await db.collection(MIGRATIONS_COLLECTION).insertOne({ _id: 'Review.customer' as never, kind: 'snapshot-backfill', fields: ['name'], from: 'customerId', startedAt: new Date(), resumeAfter: null, finishedAt: new Date() });
    // A review whose customer the new schema changed keeps its copy: the copy is the truth, not the stale reference.
    await db.collection('reviews').updateOne({ _id: reviewIds[1] }, { $set: { customer: { id: customerIds[0], name: 'Customer 0' } } });
    const found = await verdict(db);
    expect(found).toMatchObject({ text: 'Drift in 2 documents over 1 of 1 checks; run with --fix to repair.', exitCode: 3, check: { drifted: 2, missing: 0 } });
    const fixed = await verdict(db, true);
    expect(fixed).toMatchObject({ text: 'Drift in 2 documents over 1 of 1 checks; fixed 2.', exitCode: 0 });
    const reviews = await db.collection('reviews').find({}, { sort: { _id: 1 } }).toArray();
    expect(reviews.map((review) => review.customer)).toEqual([0, 0, 0].map((n) => ({ id: customerIds[n], name: `Customer ${n}` })));
    expect(await verdict(db)).toMatchObject({ text: 'No drift.', exitCode: 0 });
  });
});
