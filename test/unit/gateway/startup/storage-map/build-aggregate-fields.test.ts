import { makeExecutableSchema } from '@graphql-tools/schema';
import { printType, type GraphQLObjectType } from 'graphql';
import { withDirectiveTypeDefs } from 'docjoin';
import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { StorageConfigError } from '../../../../../src/gateway/errors/internal-errors';

/** A shop-like schema with `extra` added to Query and Product, and `review` in Review's body. */
function sdl(extra: { query?: string; product?: string; review?: string } = {}): string {
  return /* GraphQL */ `
    type Query {
      products(first: Int = 20, after: ID, category: ID, maxPrice: Float @filter(field: "price", op: LTE)): [Product!]! @list
      ${extra.query ?? ''}
    }
    type Category @collection(name: "categories") { id: ID! name: String! }
    type Product @collection(name: "products") {
      id: ID!
      name: String!
      price: Float!
      tags: [String!]!
      category: Category @join(localField: "categoryId")
      reviewCount: Int! @counter(of: "Product.reviews")
      reviews(first: Int = 20, after: ID, rating: Int): [Review!]! @join(localField: "_id", foreignField: "productId", sort: "-createdAt")
      recent: [Review!]! @embedded
      ${extra.product ?? ''}
    }
    type Review @collection(name: "reviews") {
      id: ID!
      rating: Int!
      text: String!
      createdAt: DateTime!
      ${extra.review ?? ''}
    }
  `;
}

function problemsOf(source: string): readonly string[] {
  try {
    buildStorageMap(makeExecutableSchema({ typeDefs: withDirectiveTypeDefs(source) }));
  } catch (error) {
    if (error instanceof StorageConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('@aggregate', () => {
  it('reads a root list\'s and a reverse join\'s aggregates: their keys, filters, figures, groups and counter', () => {
    const map = buildStorageMap(
      makeExecutableSchema({
        typeDefs: withDirectiveTypeDefs(
          sdl({
            query: 'productsAggregate(maxPrice: Float): ProductAggregate! @aggregate(of: "products", fields: ["price"], groupBy: ["category", "name"])',
            product: 'reviewsAggregate(rating: Int): ReviewAggregate! @aggregate(of: "reviews", fields: ["rating", "createdAt"], groupBy: ["rating"])',
          }),
        ),
      }),
    );
    expect(map.aggregates.get('Query.productsAggregate')).toEqual({
      typeName: 'Query',
      fieldName: 'productsAggregate',
      coordinate: 'Query.productsAggregate',
      list: 'Query.products',
      targetType: 'Product',
      collection: 'products',
      parentLink: undefined,
      conditions: [{ argumentName: 'maxPrice', path: 'price', op: 'LTE', objectId: false }],
      counter: undefined,
      totals: new Map(),
      figures: new Map([['price', { fieldName: 'price', path: 'price', numeric: true, scalar: 'Float' }]]),
      keys: new Map([
        ['CATEGORY', { fieldName: 'category', value: 'CATEGORY', path: 'categoryId', references: 'Category', scalar: 'ID' }],
        ['NAME', { fieldName: 'name', value: 'NAME', path: 'name', references: undefined, scalar: 'String' }],
      ]),
    });
    expect(map.aggregates.get('Product.reviewsAggregate')).toMatchObject({
      parentLink: { localField: '_id', foreignField: 'productId' },
      counter: { coordinate: 'Product.reviewCount', path: 'reviewCount' },
      figures: new Map([
        ['rating', { fieldName: 'rating', path: 'rating', numeric: true, scalar: 'Int' }],
        ['createdAt', { fieldName: 'createdAt', path: 'createdAt', numeric: false, scalar: 'DateTime' }],
      ]),
    });
    // Neither the aggregate fields nor their types are storage.
    expect(map.types.get('Product')!.fields.has('reviewsAggregate')).toBe(false);
    expect(map.types.has('ReviewAggregate')).toBe(false);
  });

  it('aggregates a connection as the list it pages: its node type, its filters', () => {
    const connection = `
      type ReviewConnection { edges: [ReviewEdge!]! pageInfo: PageInfo! totalCount: Int! }
      type ReviewEdge { cursor: String! node: Review! }
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }`;
    const map = buildStorageMap(
      makeExecutableSchema({
        typeDefs: withDirectiveTypeDefs(
          `${sdl({
            product: 'reviewPages(first: Int = 10, after: String, rating: Int): ReviewConnection! @join(localField: "_id", foreignField: "productId", sort: "-createdAt")\n pagesAggregate(rating: Int): ReviewAggregate! @aggregate(of: "reviewPages", fields: ["rating"])',
          })}${connection}`,
        ),
      }),
    );
    expect(map.aggregates.get('Product.pagesAggregate')).toMatchObject({
      list: 'Product.reviewPages',
      targetType: 'Review',
      collection: 'reviews',
      parentLink: { localField: '_id', foreignField: 'productId' },
      conditions: [{ argumentName: 'rating', path: 'rating', op: 'EQ', objectId: false }],
    });
  });

  it('generates the types the fields return: sums and means of numbers, minima and maxima of numbers and dates, typed group keys', () => {
    const schema = makeExecutableSchema({
      typeDefs: withDirectiveTypeDefs(sdl({ product: 'reviewsAggregate: ReviewAggregate! @aggregate(of: "reviews", fields: ["rating", "createdAt"], groupBy: ["rating"])' })),
    });
    const print = (name: string) => printType(schema.getType(name) as GraphQLObjectType).replace(/\s*("""[\s\S]*?"""|"[^"\n]*")\n/g, '\n').trim();
    expect(print('ReviewSums')).toBe('type ReviewSums {\n  rating: Float!\n}');
    expect(print('ReviewAverages')).toBe('type ReviewAverages {\n  rating: Float\n}');
    expect(print('ReviewMinima')).toBe('type ReviewMinima {\n  rating: Int\n  createdAt: DateTime\n}');
    expect(print('ReviewGroupKey')).toBe('type ReviewGroupKey {\n  rating: Int\n}');
    expect(print('ReviewGroupField')).toBe('enum ReviewGroupField {\n  RATING\n}');
    expect(print('ReviewAggregate')).toContain('groupBy(by: [ReviewGroupField!]!, first: Int = 20, order: AggregateGroupOrder = KEYS): [ReviewGroup!]!');
  });

  it('refuses, in one line naming Type.field and the fix, every aggregate docjoin cannot compute', () => {
    const cases: Array<[Parameters<typeof sdl>[0], string]> = [
      [{ product: 'x: ReviewAggregate! @aggregate(of: "nope")' }, 'Product.x: @aggregate(of: "nope") names no field of Product; name a list field of Product (a root @list, or a reverse @join)'],
      [{ product: 'x: ReviewAggregate! @aggregate(of: "recent")' }, 'Product.x: @aggregate(of: "recent"): Product.recent is not a root @list, a reverse @join (children holding the parent\'s key in foreignField, no limit) or the @inverse of a single reference; an aggregate is one $group over every child of such a list'],
      [{ product: 'newest: [Review!]! @join(localField: "_id", foreignField: "productId", sort: "-createdAt", limit: 3)\n x: ReviewAggregate! @aggregate(of: "newest")' }, 'Product.x: @aggregate(of: "newest"): Product.newest is not a root @list, a reverse @join (children holding the parent\'s key in foreignField, no limit) or the @inverse of a single reference; an aggregate is one $group over every child of such a list'],
      [{ product: 'x: ReviewAggregate @aggregate(of: "reviews")' }, 'Product.x: @aggregate over Product.reviews returns ReviewAggregate!, a type docjoin generates; declare the field as x: ReviewAggregate!'],
      [{ product: 'x: Review! @aggregate(of: "reviews")' }, 'Product.x: @aggregate over Product.reviews returns ReviewAggregate!, a type docjoin generates; declare the field as x: ReviewAggregate!'],
      [{ product: 'x(first: Int): ReviewAggregate! @aggregate(of: "reviews")' }, 'Product.x: argument "first" is not a filter argument of Product.reviews; an aggregate takes only the list\'s filters (rating), never its page'],
      [{ product: 'x(rating: String): ReviewAggregate! @aggregate(of: "reviews")' }, 'Product.x: argument "rating" is String but Product.reviews takes Int; declare it as Int'],
      [{ product: 'x: ReviewAggregate! @aggregate(of: "reviews", fields: ["text"])' }, 'Product.x: @aggregate(fields:) names Review.text, which is String; sum, avg, min and max need a single Int, Float, Long, Decimal or DateTime value'],
      [{ product: 'x: ReviewAggregate! @aggregate(of: "reviews", fields: ["stars"])' }, 'Product.x: @aggregate(fields:) names Review.stars, which does not exist; name a stored Int, Float, Long, Decimal or DateTime field of Review'],
      [{ query: 'x: ProductAggregate! @aggregate(of: "products", fields: ["category"])' }, 'Query.x: @aggregate(fields:) names Product.category, a relation; name a stored Int, Float, Long, Decimal or DateTime field of Product'],
      [{ query: 'x: ProductAggregate! @aggregate(of: "products", groupBy: ["tags"])' }, 'Query.x: @aggregate(groupBy:) names Product.tags, a list; group by a field holding one value'],
      [{ query: 'x: ProductAggregate! @aggregate(of: "products", groupBy: ["reviews"])' }, 'Query.x: @aggregate(groupBy:) names Product.reviews, a relation that keeps no single key in Product; group by a stored field or a reference declared with @join(localField:)'],
    ];
    for (const [extra, problem] of cases) expect(problemsOf(sdl(extra))).toEqual([problem]);
  });

  it('shares the figures and keys of every aggregate over one type (they return the same generated types), and refuses a type of a generated name', () => {
    const map = buildStorageMap(
      makeExecutableSchema({
        typeDefs: withDirectiveTypeDefs(
          sdl({
            query: 'productsAggregate: ProductAggregate! @aggregate(of: "products", fields: ["price"])',
            product: 'reviewsAggregate: ReviewAggregate! @aggregate(of: "reviews", groupBy: ["rating"])\n others: ReviewAggregate! @aggregate(of: "reviews", fields: ["createdAt"])',
          }),
        ),
      }),
    );
    expect([...map.aggregates.get('Product.reviewsAggregate')!.figures.keys()]).toEqual(['createdAt']);
    expect([...map.aggregates.get('Product.others')!.keys.keys()]).toEqual(['RATING']);
    expect(() => withDirectiveTypeDefs(`${sdl({ query: 'productsAggregate: ProductAggregate! @aggregate(of: "products", groupBy: ["name"])' })}\ntype ProductGroup { id: ID! }`)).toThrow(
      'ProductGroup: docjoin generates a type of this name for the @aggregate fields; rename your type',
    );
    // Two fields whose enum value is the same, in one aggregate or across two over one type.
    const reviewsClash = sdl({ review: 'aB: Int!\n a_b: Int!', product: 'x: ReviewAggregate! @aggregate(of: "reviews", groupBy: ["aB", "a_b"])' });
    expect(problemsOf(reviewsClash)).toEqual(['Product.x: @aggregate(groupBy:) names two fields whose enum value is A_B; keep one']);
    const acrossClash = sdl({ review: 'aB: Int!\n a_b: Int!', product: 'x: ReviewAggregate! @aggregate(of: "reviews", groupBy: ["aB"])\n y: ReviewAggregate! @aggregate(of: "reviews", groupBy: ["a_b"])' });
    expect(problemsOf(acrossClash)).toEqual(['Product.y: @aggregate(groupBy:) names Review.a_b, whose enum value A_B another @aggregate over Review gives aB; group by one of them']);
    // Sources that went through once come back unchanged.
    const once = withDirectiveTypeDefs(sdl({ query: 'productsAggregate: ProductAggregate! @aggregate(of: "products")' }));
    expect(withDirectiveTypeDefs(once)).toEqual(once);
  });
});
