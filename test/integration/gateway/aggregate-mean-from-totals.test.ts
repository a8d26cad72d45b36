import { ObjectId } from 'mongodb';
import { startSdlGateway } from '../../support/sdl-gateway';

/**
 * An `@aggregate`'s `avg` of a field a `@total` sums is read from the parent (the total over the
 * `@counter`) only when every type over the children's collection declares that field non-null: the
 * counter counts every document they write, and MongoDB's `$avg` leaves out one without the field. A
 * second type whose documents may lack it (a note with no rating) makes the mean an aggregate. And a
 * total answers only when every type over the collection stores an Int or a Long there.
 */
const typeDefs = (noteRating: string) => /* GraphQL */ `
  type Query { products(first: Int = 20): [Product!]! @list }
  type Mutation {
    createReview(input: ReviewInput!): Review! @create
    createNote(input: NoteInput!): Note! @create
    deleteNote(id: ID!): Boolean! @delete(type: "Note")
  }
  type Product @collection(name: "products") {
    id: ID!
    reviewCount: Int! @counter(of: "Product.reviews")
    ratingTotal: Float! @total(of: "Product.reviews", field: "rating")
    reviews(first: Int = 20): [Review!]! @join(localField: "_id", foreignField: "productId")
    reviewsAggregate: ReviewAggregate! @aggregate(of: "reviews", fields: ["rating"])
  }
  type Review @collection(name: "reviews") { id: ID! rating: Int! product: Product @join(localField: "productId") }
  type Note @collection(name: "reviews") { id: ID! rating: ${noteRating} text: String product: Product @join(localField: "productId") }
  input ReviewInput { product: ID! rating: Int! }
  input NoteInput { product: ID! text: String${noteRating.endsWith('!') ? ` rating: ${noteRating}` : ''} }
`;

it.each([
  ['declares the rating non-null', 'Int!', 'rating: 4', { avg: 4, roundTrips: 1 }],
  ['may lack the rating', 'Int', '', { avg: 4, roundTrips: 2 }],
])('the mean of the ratings where a second type over the reviews %s', async (_, noteRating, noteGives, expected) => {
  const product = new ObjectId();
  const s = await startSdlGateway({
    dbPrefix: 'aggregate_mean_from_totals',
    typeDefs: typeDefs(noteRating),
    prepare: async (db) => {
      await db.collection('products').insertOne({ _id: product, reviewCount: 0, ratingTotal: 0 });
      await db.collection('reviews').createIndex({ productId: 1 });
    },
  });
  try {
    for (const query of [`mutation { createReview(input: { product: "${product}", rating: 4 }) { id } }`, `mutation { createNote(input: { product: "${product}", text: "hi" ${noteGives} }) { id } }`]) {
      expect((await s.gateway.execute({ query })).errors).toBeUndefined();
    }
    const result = await s.gateway.execute({ query: '{ products { reviewsAggregate { avg { rating } } } }' });
    expect(result.errors).toBeUndefined();
    expect({ avg: (result.data as { products: Array<{ reviewsAggregate: { avg: { rating: number } } }> }).products[0]!.reviewsAggregate.avg.rating, roundTrips: result.cost?.roundTrips }).toEqual(expected);
  } finally {
    await s.stop();
  }
});

it('sums by aggregate, not from the total, when a second type over the reviews stores a Float rating: a running sum of doubles drifts from $sum', async () => {
  const product = new ObjectId();
  const s = await startSdlGateway({
    dbPrefix: 'aggregate_sum_mixed_types',
    typeDefs: typeDefs('Float!'),
    prepare: async (db) => {
      await db.collection('products').insertOne({ _id: product, reviewCount: 0, ratingTotal: 0 });
      await db.collection('reviews').createIndex({ productId: 1 });
    },
  });
  try {
    const ids: string[] = [];
    for (const rating of [0.1, 0.2, 0.3]) {
      const created = await s.gateway.execute({ query: `mutation { createNote(input: { product: "${product}", rating: ${rating} }) { id } }` });
      expect(created.errors).toBeUndefined();
      ids.push((created.data as { createNote: { id: string } }).createNote.id);
    }
    expect((await s.gateway.execute({ query: `mutation { deleteNote(id: "${ids[0]}") }` })).errors).toBeUndefined();
    // The parent's running total: +0.1 +0.2 +0.3 -0.1 in doubles.
    expect((await s.db.collection('products').findOne({ _id: product }))?.ratingTotal).toBe(0.5000000000000001);
    const [fresh] = await s.db.collection('reviews').aggregate([{ $group: { _id: null, sum: { $sum: '$rating' }, avg: { $avg: '$rating' } } }]).toArray();
    const result = await s.gateway.execute({ query: '{ products { reviewsAggregate { sum { rating } avg { rating } } } }' });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ products: [{ reviewsAggregate: { sum: { rating: fresh!.sum }, avg: { rating: fresh!.avg } } }] });
    expect(result.cost?.roundTrips).toBe(2);
  } finally {
    await s.stop();
  }
});

/** The reviews' rating at `stats.rating`; a note keeps its `stats` as `noteStats` (a JSON value or an embedded object). */
const nestedTypeDefs = (noteStats: string, statsTypes: string) => /* GraphQL */ `
  scalar JSON
  type Query { products(first: Int = 20): [Product!]! @list }
  type Mutation { createNote(input: NoteInput!): Note! @create }
  type Product @collection(name: "products") {
    id: ID!
    reviewCount: Int! @counter(of: "Product.reviews")
    ratingTotal: Float! @total(of: "Product.reviews", field: "rating")
    reviews(first: Int = 20): [Review!]! @join(localField: "_id", foreignField: "productId")
    reviewsAggregate: ReviewAggregate! @aggregate(of: "reviews", fields: ["rating"])
  }
  type Review @collection(name: "reviews") { id: ID! rating: Int! @path(path: "stats.rating") product: Product @join(localField: "productId") }
  type Note @collection(name: "reviews") { id: ID! stats: ${noteStats} text: String product: Product @join(localField: "productId") }
  ${statsTypes}
  input NoteInput { product: ID! stats: ${noteStats === 'JSON' ? 'JSON' : 'NoteStatsInput'} }
`;

it.each([
  ['a JSON value around it', 'JSON', '', [0.1, 0.2], 2],
  ['an embedded object holding a Float there', 'NoteStats @embedded', 'type NoteStats { rating: Float }\ninput NoteStatsInput { rating: Float }', [0.1, 0.2], 2],
  ['an embedded object holding an Int there', 'NoteStats @embedded', 'type NoteStats { rating: Int }\ninput NoteStatsInput { rating: Int }', [1, 2], 1],
])('a second type storing %s: the sum is read from the total only where that holds whole numbers', async (_label, noteStats, statsTypes, ratings, roundTrips) => {
  const product = new ObjectId();
  const s = await startSdlGateway({
    dbPrefix: `aggregate_sum_nested_${roundTrips}_${noteStats.length}`,
    typeDefs: nestedTypeDefs(noteStats, statsTypes),
    prepare: async (db) => {
      await db.collection('products').insertOne({ _id: product, reviewCount: 0, ratingTotal: 0 });
      await db.collection('reviews').createIndex({ productId: 1 });
    },
  });
  try {
    for (const rating of ratings) {
      expect((await s.gateway.execute({ query: `mutation { createNote(input: { product: "${product}", stats: { rating: ${rating} } }) { id } }` })).errors).toBeUndefined();
    }
    const [fresh] = await s.db.collection('reviews').aggregate([{ $group: { _id: null, sum: { $sum: '$stats.rating' } } }]).toArray();
    const result = await s.gateway.execute({ query: '{ products { reviewsAggregate { sum { rating } } } }' });
    expect([result.errors, result.data]).toEqual([undefined, { products: [{ reviewsAggregate: { sum: { rating: fresh!.sum } } }] }]);
    expect(result.cost?.roundTrips).toBe(roundTrips);
  } finally {
    await s.stop();
  }
});
