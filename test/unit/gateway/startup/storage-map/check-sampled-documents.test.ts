import { Decimal128, Long, ObjectId } from 'bson';
import { GraphQLScalarType } from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';
import { checkSampledDocuments } from '../../../../../src/gateway/startup/storage-map/check-sampled-documents';
import type { StoredDocument } from '../../../../../src/gateway/documents/stored-document';

/** DateTime used, not declared: docjoin provides it (BSON dates) unless the resolvers give their own. */
const SDL = /* GraphQL */ `
  type Query { tasks(first: Int = 20): [Task!]! @list }
  enum Status { OPEN DONE }
  type Task @collection(name: "tasks") {
    id: ID!
    title: String!
    due: DateTime
    reminders: [DateTime!]
    status: Status
    labels: [Status!]
    price: Decimal
    serial: Long
    assignee: ID
  }
`;

const day = new Date('2026-11-21T09:30:00.000Z');

/**
 * The sample check's warnings for `documents` of tasks, with the schema built from `resolvers` (or none:
 * `withSchema` false), but those about fields no sampled document has.
 */
async function warningsFor(documents: readonly StoredDocument[], options: { resolvers?: IResolvers; withSchema?: boolean } = {}): Promise<string[]> {
  const { schema, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers: options.resolvers ?? {} });
  const source = { sampleDocuments: async () => documents.map((document) => ({ title: 'Task', ...document })) };
  const { problems, warnings } = await checkSampledDocuments(storageMap, new Set(['tasks']), source, [], options.withSchema === false ? undefined : schema);
  expect(problems).toEqual([]);
  return warnings.filter((warning) => !warning.includes(' is missing in all '));
}

describe('checkSampledDocuments: stored types that disagree with the schema', () => {
  it('accepts BSON dates and enum values by name', async () => {
    expect(await warningsFor([{ due: day, reminders: [day], status: 'OPEN', labels: ['DONE'] }, { status: null }])).toEqual([]);
  });

  it('names a DateTime held as a string: ordering compares strings, range filters miss them, and the update that converts them', async () => {
    expect(await warningsFor([{ due: day }, { due: '2026-11-21T09:30:00Z' }, { due: '2026-11-22' }])).toEqual([
      'Task.due is DateTime, but "due" holds a string ("2026-11-21T09:30:00Z") in 2 of 3 sampled tasks documents, not a BSON date: ordering by it sorts those as strings, before every date, range filters on it (given dates) never match them, and its min/max rank them apart from the dates; convert them: db.tasks.updateMany({ "due": { $type: "string" } }, [{ $set: { "due": { $toDate: "$due" } } }])',
    ]);
  });

  it('names a DateTime held as something else than a date or a string, and strings in a list of them', async () => {
    expect(await warningsFor([{ due: 1_763_717_400_000, reminders: [day, '2026-11-21'] }])).toEqual([
      'Task.due is DateTime, but "due" holds a number in 1 of 1 sampled tasks documents, not a BSON date: ordering by it, range filters on it (given dates) and its min/max do not compare it as a date; store BSON dates',
      'Task.reminders is [DateTime!], but "reminders" holds a string ("2026-11-21") in 1 of 1 sampled tasks documents, not a BSON date: ordering by it sorts those as strings, before every date, range filters on it (given dates) never match them, and its min/max rank them apart from the dates; store BSON dates',
    ]);
  });

  it('names an ID held as a string or a number: filters, access rules and generated writes use ObjectIds', async () => {
    expect(await warningsFor([{ assignee: new ObjectId() }, { assignee: null }])).toEqual([]);
    expect(await warningsFor([{ assignee: new ObjectId() }, { assignee: '64b000000000000000000001' }, { assignee: 7 }])).toEqual([
      'Task.assignee is ID, but "assignee" holds "64b000000000000000000001" in 1 of 3 sampled tasks documents (and a number in 1 more), not an ObjectId: filters and access rules compare an ID field with ObjectIds and generated writes store ObjectIds, so they never match those documents; store ObjectIds, or make Task.assignee a String',
    ]);
  });

  it("names the first value that is not one of the enum's, and the enum's values", async () => {
    expect(await warningsFor([{ status: 'OPEN' }, { status: 'open' }, { status: 'done', labels: ['OPEN', 2] }])).toEqual([
      'Task.status is Status, but "status" holds "open" in 2 of 3 sampled tasks documents, which is not a value of Status (OPEN, DONE): filters on it will not match those documents, and reading it there fails',
      'Task.labels is [Status!], but "labels" holds 2 in 1 of 3 sampled tasks documents, which is not a value of Status (OPEN, DONE): filters on it will not match those documents, and reading it there fails',
    ]);
  });

  it('takes enum values mapped by the resolvers as the documents hold them', async () => {
    const resolvers = { Status: { OPEN: 'open', DONE: 'done' } };
    expect(await warningsFor([{ status: 'open' }, { status: 'done' }], { resolvers })).toEqual([]);
    expect(await warningsFor([{ status: 'open' }, { status: 'OPEN' }], { resolvers })).toEqual([
      'Task.status is Status, but "status" holds "OPEN" in 1 of 2 sampled tasks documents, which is not a value of Status (OPEN stored as "open", DONE stored as "done"): filters on it will not match those documents, and reading it there fails',
    ]);
  });

  it('names a Decimal held as doubles (about 16 digits, summed as doubles) and the update that converts them, and a Long that is no whole number', async () => {
    expect(await warningsFor([{ price: Decimal128.fromString('19.99'), serial: Long.fromNumber(7) }, { price: 0.1, serial: 7 }, { serial: 1.5 }])).toEqual([
      'Task.price is Decimal, but "price" holds a double (0.1) in 1 of 3 sampled tasks documents, not a BSON Decimal128: it keeps about 16 digits and sums over it add doubles; convert them: db.tasks.updateMany({ "price": { $type: "double" } }, [{ $set: { "price": { $toDecimal: "$price" } } }])',
      'Task.serial is Long, but "serial" holds 1.5 in 1 of 3 sampled tasks documents: reading it fails ("Long cannot represent 1.5 exactly"), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Long values there, or declare the type the data holds',
    ]);
  });

  it('leaves a DateTime of your own alone: it stores what it stores', async () => {
    const DateTime = new GraphQLScalarType({ name: 'DateTime', serialize: (value) => value, parseValue: (value) => value });
    expect(await warningsFor([{ due: '2026-11-21' }], { resolvers: { DateTime } })).toEqual([]);
  });

  it('without the executable schema, checks that enum values are strings and DateTime values dates', async () => {
    expect(await warningsFor([{ status: 'open', due: day }, { status: 3, due: day }], { withSchema: false })).toEqual([
      'Task.status is Status, but "status" holds 3 in 1 of 2 sampled tasks documents: reading it fails (it is no value of Status), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Status values there, or declare the type the data holds',
    ]);
    expect(await warningsFor([{ due: '2026-11-21' }], { withSchema: false })).toHaveLength(1);
  });
});

describe('checkSampledDocuments: values GraphQL converts, and embedded values', () => {
  const sdl = /* GraphQL */ `
    type Query { orders(first: Int = 20): [Order!]! @list }
    type Order @collection(name: "orders") { id: ID! number: Int! note: String paid: Boolean grid: [[Int!]!] lines: [Line!]! @embedded address: Address @embedded(path: "shipTo") }
    type Line { sku: String! quantity: Int! options: [Option!]! @embedded }
    type Option { name: String! }
    type Address { zip: String! }
  `;
  const check = async (documents: StoredDocument[]) => {
    const { schema, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    const full = documents.map((document) => ({ _id: new ObjectId(), number: 1, lines: [], ...document }));
    return (await checkSampledDocuments(storageMap, new Set(['orders']), { sampleDocuments: async () => full }, [], schema)).warnings.filter((warning) => !warning.includes(' is missing in all '));
  };

  it('says what GraphQL answers for a value of another built-in type: converted with nothing to say so, or an error', async () => {
    expect(await check([{ number: true, note: 42, paid: 1 }, { number: 'x' }])).toEqual([
      'Order.number is Int!, but "number" holds true in 1 of 2 sampled orders documents (and a string in 1 more): GraphQL answers it converted, as 1, with nothing to say so, and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
      'Order.note is String, but "note" holds 42 in 1 of 2 sampled orders documents: GraphQL answers it converted, as "42", with nothing to say so, and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store String values there, or declare the type the data holds',
      'Order.paid is Boolean, but "paid" holds 1 in 1 of 2 sampled orders documents: GraphQL answers it converted, as true, with nothing to say so, and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Boolean values there, or declare the type the data holds',
    ]);
    expect(await check([{ number: 'x' }])).toEqual([
      'Order.number is Int!, but "number" holds "x" in 1 of 1 sampled orders documents: reading it fails ("Int cannot represent non-integer value: "x""), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
    ]);
  });

  it('says a list ordered by a scalar field holding arrays orders them by one element', async () => {
    expect(await check([{ note: ['a', 'b'] }, { note: 'c' }])).toEqual([
      'Order.note is String, but "note" holds an array in 1 of 2 sampled orders documents: reading it fails ("String cannot represent value: ["a", "b"]"), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others; an array it orders by its smallest element, its largest descending); store String values there, or declare the type the data holds',
    ]);
  });

  it('says a list field holding a single value fails to read there, naming the type as declared', async () => {
    expect(await check([{ grid: 3 }, { grid: [[1]] }])).toEqual([
      'Order.grid is [[Int!]!], but "grid" holds 3 in 1 of 2 sampled orders documents, not an array: reading it there fails (GraphQL\'s "Expected Iterable" error), and filters on it match it as they would an array holding it; store arrays there (a single value as an array of one), or declare the type the data holds',
    ]);
    // Beside arrays holding a wrong item, each is counted apart.
    expect(await check([{ grid: 3 }, { grid: [[1, 'x']] }])).toEqual([
      'Order.grid is [[Int!]!], but "grid" holds 3 in 1 of 2 sampled orders documents, not an array: reading it there fails (GraphQL\'s "Expected Iterable" error), and filters on it match it as they would an array holding it; store arrays there (a single value as an array of one), or declare the type the data holds',
      'Order.grid is [[Int!]!], but "grid" holds "x" in 1 of 2 sampled orders documents: reading it fails ("Int cannot represent non-integer value: "x""), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
    ]);
  });

  it('says a null item in a list of non-null items fails to read, at any depth, and leaves nullable items alone', async () => {
    expect(await check([{ grid: [[1, null]] }, { grid: [null] }, { grid: [[2]] }])).toEqual([
      'Order.grid is [[Int!]!], but "grid" holds a null item in 2 of 3 sampled orders documents; reading them fails with "Cannot return null" (GraphQL nulls the whole list, or its parent), so remove the nulls, or make the items nullable',
    ]);
    const { schema, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl.replace('grid: [[Int!]!]', 'grid: [[Int]]')), resolvers: {} });
    const sampled = [{ _id: new ObjectId(), number: 1, lines: [], grid: [[1, null], null] }];
    expect((await checkSampledDocuments(storageMap, new Set(['orders']), { sampleDocuments: async () => sampled }, [], schema)).warnings.filter((warning) => warning.startsWith('Order.grid'))).toEqual([]);
  });

  it('reads a list of lists its depth deep: arrays of numbers in [[Int!]!] are what it holds', async () => {
    expect(await check([{ grid: [[1, 2], [3]] }, { grid: [] }])).toEqual([]);
    expect(await check([{ grid: [[1, 'x']] }])).toEqual([
      'Order.grid is [[Int!]!], but "grid" holds "x" in 1 of 1 sampled orders documents: reading it fails ("Int cannot represent non-integer value: "x""), and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
    ]);
  });

  it('checks the values of embedded types, inside embedded types too, naming where they are', async () => {
    expect(
      await check([
        { lines: [{ sku: 'a', quantity: 1, options: [{ name: 'red' }] }, { sku: 'b', quantity: '2', options: [{ name: 7 }] }], shipTo: { zip: '1000' } },
        { lines: [{ quantity: 3, options: [] }], shipTo: {} },
      ]),
    ).toEqual([
      'Line.sku is non-null, but "sku" is missing in 1 of 3 values at "lines" in 2 sampled orders documents; reading them fails with "Cannot return null"',
      'Line.quantity is Int!, but "quantity" holds "2" in 1 of 3 values at "lines" in 2 sampled orders documents: GraphQL answers it converted, as 2, with nothing to say so, and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store Int values there, or declare the type the data holds',
      'Option.name is String!, but "name" holds 7 in 1 of 2 values at "lines.options" in 2 sampled orders documents: GraphQL answers it converted, as "7", with nothing to say so, and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others); store String values there, or declare the type the data holds',
      'Address.zip is non-null, but "zip" is missing in 1 of 2 values at "shipTo" in 2 sampled orders documents; reading them fails with "Cannot return null"',
    ]);
  });
});

describe('checkSampledDocuments: embedded values that are no documents', () => {
  const sdl = /* GraphQL */ `
    type Query { orders(first: Int = 20): [Order!]! @list }
    type Order @collection(name: "orders") { id: ID! lines: [Line!]! @embedded notes: [Note] @embedded shipping: Address @embedded meta: Meta! @embedded }
    type Line { sku: String }
    type Note { text: String }
    type Address { city: String }
    type Meta { source: String }
  `;
  const check = async (documents: StoredDocument[]) => {
    const { schema, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    const full = documents.map((document) => ({ _id: new ObjectId(), lines: [], meta: {}, ...document }));
    return (await checkSampledDocuments(storageMap, new Set(['orders']), { sampleDocuments: async () => full }, [], schema)).warnings.filter((warning) => !warning.includes(' is missing in all '));
  };

  it('names a value the projection inside it would leave out of the answer, and a missing non-null one', async () => {
    expect(await check([{ lines: [null, { sku: 'd' }, 'a'], notes: [null, { text: 'x' }], shipping: 'Main St 1, Oslo' }, { meta: undefined }])).toEqual([
      'Order.lines: "lines" holds null where a list of Line documents belongs (2 such values of 2 sampled orders documents); docjoin reads the fields inside it, which leaves such a value out of the answer, so correct or remove it, or make the elements nullable ([Line]) if a null is meant',
      'Order.shipping: "shipping" holds a string where a document of type Address belongs (1 such value of 2 sampled orders documents); docjoin reads the fields inside it, which leaves such a value out of the answer, so correct or remove it',
      'Order.meta is non-null, but "meta" is missing in 1 of 2 sampled orders documents; reading them fails with "Cannot return null"',
    ]);
  });

  it('says nothing of documents, nulls where the elements may be null, a missing nullable one, or a missing list (read as [])', async () => {
    expect(await check([{ lines: [{ sku: 'a' }], notes: [null], shipping: { city: 'Oslo' } }, {}, { lines: undefined }])).toEqual([]);
  });
});

describe('checkSampledDocuments: what every start reads alike decides the start', () => {
  const sdl = /* GraphQL */ `
    type Query { orders(first: Int = 20): [Order!]! @list }
    type Customer @collection(name: "customers") { id: ID! name: String! }
    type Order @collection(name: "orders") { id: ID! customer: Customer @snapshot(path: "customer", fields: ["id", "name"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT) }
  `;
  const { storageMap, schema } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
  const orders = (keylessAt: number) =>
    Array.from({ length: 30 }, (_, n) => ({ _id: new ObjectId(), customer: n === keylessAt ? { name: 'Ada' } : { id: new ObjectId(), name: 'Ada' } }));
  const check = (documents: StoredDocument[]) => checkSampledDocuments(storageMap, new Set(['orders']), { sampleDocuments: async () => documents }, [], schema);

  it('refuses a copy without its key among the first 20 documents, and only warns of one among those picked at random', async () => {
    const first = await check(orders(3));
    expect([first.problems.length, first.warnings.filter((warning) => warning.includes('without its key'))]).toEqual([1, []]);
    const picked = await check(orders(25));
    expect(picked.problems).toEqual([]);
    expect(picked.warnings.filter((warning) => warning.includes('without its key'))).toEqual([
      'Order.customer: 1 of 30 sampled orders documents keep a snapshot at "customer" without its key "id"; snapshot misses, write fan-out and reconcile all go by "customer.id", so store the key inside each copy (startup refuses it once such a document is among the first 20 in _id order)',
    ]);
  });
});

describe('checkSampledDocuments: a snapshot keyed by _id', () => {
  it("takes the copy's _id for the field reading the target's id: no copy lacks it, nothing to widen", async () => {
    const sdl = /* GraphQL */ `
      type Query { orders(first: Int = 20): [Order!]! @list }
      type Customer @collection(name: "customers") { id: ID! name: String! }
      type Order @collection(name: "orders") { id: ID! customer: Customer @snapshot(path: "customer", fields: ["id", "name"], key: "_id") @join(localField: "customer._id") @read(strategy: SNAPSHOT) }
    `;
    const { storageMap, schema } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    const orders = [{ _id: new ObjectId(), customer: { _id: new ObjectId(), name: 'Ada' } }, { _id: new ObjectId(), customer: { _id: new ObjectId() } }];
    const checked = await checkSampledDocuments(storageMap, new Set(['orders']), { sampleDocuments: async () => orders }, [], schema);
    expect([checked.problems, checked.warnings.filter((warning) => warning.includes('which its @snapshot(fields:) declares'))]).toEqual([
      [],
      ['Order.customer: 1 of 2 sampled orders documents keep a snapshot at "customer" without "name", which its @snapshot(fields:) declares; reads that need it join for those documents, and the estimates count that join until docjoin restarts after `docjoin migrate --widen Order.customer --fields name --write` fills them'],
    ]);
  });
});

describe('checkSampledDocuments: a join whose keys are not the ids they name', () => {
  const sdl = /* GraphQL */ `
    type Query { reviews(first: Int = 20): [Review!]! @list }
    type Customer @collection(name: "customers") { id: ID! name: String! reviews: [Review!]! @join(localField: "_id", foreignField: "customerId") }
    type Review @collection(name: "reviews") { id: ID! body: String! customer: Customer @join(localField: "customerId") }
  `;
  const ids = [1, 2, 3].map((n) => new ObjectId(`6955b90000000000000000c${n}`));
  const check = async (customerIds: readonly unknown[], typeDefs = sdl) => {
    const { schema, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(typeDefs), resolvers: {} });
    const documents: Record<string, StoredDocument[]> = {
      customers: ids.map((_id) => ({ _id, name: 'C' })),
      reviews: customerIds.map((customerId, n) => ({ _id: new ObjectId(), body: `review ${n}`, customerId })),
    };
    return checkSampledDocuments(storageMap, new Set(['customers', 'reviews']), { sampleDocuments: async (collection) => documents[collection] ?? [] }, [], schema);
  };

  it('warns when the keys are strings (hex) and the ids ObjectIds: every join would find nothing', async () => {
    expect((await check(ids.map((id) => id.toHexString()))).warnings).toEqual([
      'Customer.reviews: the reviews documents keep "customerId" as 3 string values (sampled), but the customers "_id" ids are ObjectId: those children are never found (the lists are empty); store the keys as the customers documents have them',
      'Review.customer: its key "customerId" holds 3 string values (in 3 sampled reviews documents), but the customers ids are ObjectId: those references find nothing (null); store the ids as the customers documents have them',
    ]);
  });

  it('warns of ids that are no ObjectIds: id arguments refuse them', async () => {
    const { storageMap, schema } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    const documents = [{ _id: 'cat-books', name: 'Books' }, { _id: ids[0], name: 'C' }];
    const { warnings } = await checkSampledDocuments(storageMap, new Set(['customers']), { sampleDocuments: async () => documents }, [], schema);
    expect(warnings).toEqual([
      'Customer: 1 of 2 sampled customers documents have an _id that is no ObjectId (string "cat-books"), and docjoin takes ids as ObjectIds: an id argument (@find, after:, the generated updates and deletes) refuses theirs; give them ObjectIds, or serve them with resolvers of your own',
    ]);
  });

  it('warns that an id of 24 hex digits stored as a string is read as the ObjectId: it is not refused, it names another document', async () => {
    const { storageMap, schema } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    const documents = [{ _id: 'cat-books', name: 'Books' }, { _id: '64b000000000000000000001', name: 'Hex' }, { _id: ids[0], name: 'C' }];
    const { warnings } = await checkSampledDocuments(storageMap, new Set(['customers']), { sampleDocuments: async () => documents }, [], schema);
    expect(warnings).toEqual([
      'Customer: 2 of 3 sampled customers documents have an _id that is no ObjectId (string "cat-books"), and docjoin takes ids as ObjectIds: an id argument (@find, after:, the generated updates and deletes) refuses theirs, and reads one of 24 hex digits (string "64b000000000000000000001") as the ObjectId: @find finds nothing, a page after it skips or refuses the items that follow, and writes miss it; give them ObjectIds, or serve them with resolvers of your own',
    ]);
  });

  it('says nothing when they are of a kind, or missing', async () => {
    expect((await check([ids[0], null, ids[2]])).warnings).toEqual([]);
  });

  it('warns of a missing key where the relation is non-null: that review fails with "Cannot return null"', async () => {
    const nonNull = sdl.replace('customer: Customer @join', 'customer: Customer! @join');
    expect((await check([ids[0], null, undefined, ids[2]], nonNull)).warnings).toEqual([
      'Review.customer is non-null, but its key "customerId" is missing in 2 of 4 sampled reviews documents; joining finds nothing for them, and reading them fails with "Cannot return null"',
    ]);
    expect((await check(ids, nonNull)).warnings).toEqual([]);
  });
});

describe('checkSampledDocuments: a path no sampled document has', () => {
  it('points at the field name, or at the @path that names the path, and says a non-null one fails to read', async () => {
    const sdl = /* GraphQL */ `
      type Query { patients(first: Int = 20): [Patient!]! @list }
      type Patient @collection(name: "patients") { id: ID! nmae: String email: String @path(path: "mail") phone: String! }
    `;
    const { schema, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    const documents = [{ _id: new ObjectId(), name: 'A', email: 'a@example.com' }];
    const { warnings } = await checkSampledDocuments(storageMap, new Set(['patients']), { sampleDocuments: async () => documents }, [], schema);
    expect(warnings).toEqual([
      'Patient.nmae: "nmae" is missing in all of 1 sampled patients documents; check the field name or add @path(path: "...")',
      'Patient.email: "mail" is missing in all of 1 sampled patients documents; check its @path(path: "mail")',
      'Patient.phone: "phone" is missing in all of 1 sampled patients documents, and as the field is non-null, reading it fails with "Cannot return null" in each of them; check the field name or add @path(path: "...")',
    ]);
  });
});
