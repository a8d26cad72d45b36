import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { StorageConfigError } from '../../../../../src/gateway/errors/internal-errors';
import { schemaOf } from '../../support/demo-schema';

const TYPES = /* GraphQL */ `
  enum Status { OPEN DONE }
  type Order @collection(name: "orders") { id: ID! number: String! total: Float! status: Status! placedAt: String! customerId: ID lines: [Line!]! @embedded }
  type Line { sku: String! }
  type Note { text: String! }
`;

function problemsOf(query: string): readonly string[] {
  try {
    buildStorageMap(schemaOf(`${query}\n${TYPES}`));
  } catch (error) {
    if (error instanceof StorageConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('@find and @list root fields', () => {
  it('read into typed plans: conditions on stored paths, the sort with its _id tie-breaker, orderBy values', () => {
    const map = buildStorageMap(
      schemaOf(/* GraphQL */ `
        type Query {
          order(id: ID!): Order @find
          orders(first: Int, after: ID, orderBy: OrderOrder, status: Status, customer: ID @filter(field: "customerId"), since: String @filter(field: "placedAt", op: GTE), numbers: [String!] @filter(field: "number")): [Order!]! @list(sort: "-placedAt")
        }
        enum OrderOrder { NEWEST @sort(by: "-placedAt") BIGGEST @sort(by: "-total,number") }
        ${TYPES}
      `),
    );
    expect(map.roots.get('Query.order')).toEqual({
      kind: 'find',
      coordinate: 'Query.order',
      fieldName: 'order',
      targetType: 'Order',
      collection: 'orders',
      conditions: [{ argumentName: 'id', path: '_id', op: 'EQ', objectId: true }],
    });
    expect(map.roots.get('Query.orders')).toEqual({
      kind: 'list',
      coordinate: 'Query.orders',
      fieldName: 'orders',
      targetType: 'Order',
      collection: 'orders',
      firstDefault: 20,
      sort: [
        { path: 'placedAt', direction: -1 },
        { path: '_id', direction: -1 },
      ],
      orderBy: {
        argumentName: 'orderBy',
        sorts: new Map([
          ['NEWEST', [{ path: 'placedAt', direction: -1 }, { path: '_id', direction: -1 }]],
          ['BIGGEST', [{ path: 'total', direction: -1 }, { path: 'number', direction: 1 }, { path: '_id', direction: 1 }]],
        ]),
      },
      conditions: [
        { argumentName: 'status', path: 'status', op: 'EQ', objectId: false },
        { argumentName: 'customer', path: 'customerId', op: 'EQ', objectId: true },
        { argumentName: 'since', path: 'placedAt', op: 'GTE', objectId: false },
        { argumentName: 'numbers', path: 'number', op: 'IN', objectId: false },
      ],
    });
  });

  it.each([
    ['order(id: ID!): [Order!]! @find', 'Query.order: @find returns one document, but the field is a list; use @list for a page of Order'],
    ['order(id: ID!): Order! @find', 'Query.order: @find returns null when nothing matches; make the field nullable (Order, not Order!)'],
    ['order: Order @find', 'Query.order: @find needs arguments naming a unique key, e.g. order(id: ID!)'],
    ['order(number: String): Order @find', 'Query.order: @find argument "number" must be non-null (String!): every argument is part of the key'],
    ['order(since: String! @filter(field: "placedAt", op: GT)): Order @find', 'Query.order: @find compares by equality only; argument "since" asks for GT'],
    ['note(text: String!): Note @find', 'Query.note: @find returns Note, which has no @collection; add @collection(name: "...") to type Note'],
    ['order(id: ID!): Order @find @list', 'Query.order: declares both @find and @list; keep @find for one document, @list for a page'],
    ['orders: Order @list', 'Query.orders: @list returns a page, but the field is not a list; make it [Order!]! (or a connection) or use @find'],
    ['orders(first: String): [Order!]! @list', 'Query.orders: argument "first" must be of type Int'],
    ['orders(first: Int = 500): [Order!]! @list', 'Query.orders: argument "first" defaults to 500, but a page holds 0 to 100 items; give it a default in that range'],
    ['orders(after: Int): [Order!]! @list', 'Query.orders: argument "after" must be of type ID (the id of the last item received)'],
    ['orders(colour: String): [Order!]! @list', 'Query.orders: argument "colour" is neither a field of Order nor first, after or orderBy; rename it or add @filter(field: "...", op: ...)'],
    ['orders(x: String @filter(field: "lines")): [Order!]! @list', 'Query.orders: argument "x": @filter(field: "lines") is neither a stored field nor a reference of Order'],
    ['orders(number: String @filter(field: "number", op: IN)): [Order!]! @list', 'Query.orders: argument "number": @filter(op: IN) takes a list; make it [String!]'],
    ['orders(total: [Float!] @filter(field: "total", op: GT)): [Order!]! @list', 'Query.orders: argument "total" is a list, which only @filter(op: IN) compares'],
    ['orders(total: Float @filter(field: "total", op: PREFIX)): [Order!]! @list', 'Query.orders: argument "total": @filter(op: PREFIX) compares strings; make it String'],
    // An argument of another type than the field it compares matched nothing, silently.
    ['orders(minTotal: String @filter(field: "total", op: GTE)): [Order!]! @list', 'Query.orders: argument "minTotal" is String, but it compares Order.total, Float, so no stored value would match it; make it Float'],
    ['order(number: Int!): Order @find', 'Query.order: argument "number" is Int, but it compares Order.number, String, so no stored value would match it; make it String'],
    ['orders(numbers: [ID!] @filter(field: "number")): [Order!]! @list', 'Query.orders: argument "numbers" is ID, but it compares Order.number, String, so no stored value would match it; make it [String!]'],
    ['orders: [Order!]! @list(sort: "-")', 'Query.orders: @list sort "-" has an invalid path "-"; use paths like "-createdAt" or "name,-_id"'],
  ])('%s is refused: %s', (field, problem) => {
    expect(problemsOf(`type Query { ${field} }`)).toEqual([problem]);
  });

  it('accepts an argument of the same kind of value (an Int for a Float, an enum for a String), and a scalar of the project\'s own either way', () => {
    expect(problemsOf('type Query { orders(minTotal: Int @filter(field: "total", op: GTE), numberIs: Status @filter(field: "number")): [Order!]! @list }')).toEqual([]);
    expect(problemsOf('scalar OrderNumber type Query { orders(numberIs: OrderNumber @filter(field: "number")): [Order!]! @list }')).toEqual([]);
  });

  it('names the missing id field when an id argument finds none, and the rename when the type declares _id', () => {
    expect(problemsOf('type Query { note(id: ID!): Noted @find } type Noted @collection(name: "notes") { text: String! }')).toEqual([
      'Query.note: argument "id" names Noted.id, which Noted does not declare; add id: ID! to type Noted (an id field reads the documents\' _id)',
    ]);
    expect(problemsOf('type Query { note(id: ID!): Noted @find } type Noted @collection(name: "notes") { _id: ID! text: String! }')).toEqual([
      'Query.note: argument "id" names Noted.id, which Noted does not declare; rename its field _id to id (an id field reads the documents\' _id)',
    ]);
  });

  it('refuses an orderBy enum value without @sort', () => {
    expect(problemsOf('type Query { orders(orderBy: Status): [Order!]! @list }')).toEqual([
      'Query.orders: argument "orderBy": enum value Status.OPEN has no @sort(by: "..."); add one, e.g. @sort(by: "-createdAt")',
    ]);
  });
});
