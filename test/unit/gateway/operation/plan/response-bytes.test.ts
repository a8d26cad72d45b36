import { buildSchema, execute, getOperationAST, parse, type GraphQLObjectType } from 'graphql';
import { buildOperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';
import { leastEntryBytes, leastItemBytes } from '../../../../../src/gateway/operation/plan/response-bytes';
import { responseObjects } from '../../../../../src/gateway/operation/limits/response-size-guard';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';
import { Random } from '../../../../support/random-operations';

/**
 * leastItemBytes is what the response-size guard counts per object: it must never be more than the
 * object takes as JSON (a response it stops would have fit otherwise), and it is the size of the
 * shortest object the selection allows.
 */
const TYPES = /* GraphQL */ `
  type Shelf { books: [Book!]! page: BookConnection! }
  type Book { id: ID! title: String! subtitle: String pages: Int rating: Float! inPrint: Boolean! used: Boolean kind: Kind! format: Kind tags: [String!]! author: Author! editor: Author }
  type Author { name: String! }
  enum Kind { NOVEL ESSAY }
  type BookConnection { edges: [BookEdge!]! nodes: [Book!]! totalCount: Int! }
  type BookEdge { cursor: String! node: Book! }
`;
const SDL = /* GraphQL */ `
  type Query { shelves(first: Int = 10): [Shelf!]! @list }
  type Shelf @collection(name: "shelves") { id: ID! books: [Book!]! @embedded(path: "books") page: BookConnection! @join(localField: "_id", foreignField: "shelfId") }
  type Book @collection(name: "books") { id: ID! shelfId: ID! title: String! subtitle: String pages: Int rating: Float! inPrint: Boolean! used: Boolean kind: Kind! format: Kind tags: [String!]! author: Author! @embedded editor: Author @embedded }
  type Author { name: String! }
  enum Kind { NOVEL ESSAY }
  type BookConnection { edges: [BookEdge!]! nodes: [Book!]! pageInfo: PageInfo! totalCount: Int! }
  type BookEdge { cursor: String! node: Book! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;
const gateway = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers: {} });
const plain = buildSchema(`type Query { shelf: Shelf probe: Probe }\ntype Probe { fString: [String!]! fInt: [Int] fBoolean: [Boolean] fKind: [Kind!] }\n${TYPES}`);
const BOOK_LEAVES = 'id title subtitle pages rating inPrint used kind format tags x: title __typename';
/** An object below an item is counted as an item of its own field: none of its bytes count in the item's. */
const BOOK_SELECTION = `${BOOK_LEAVES} author { name } editor { name }`;

function stepOf(query: string, fieldName: string) {
  const document = parse(query);
  const plan = buildOperationPlan(gateway.schema, document, getOperationAST(document)!, {}, gateway.ownership);
  return plan.root!.fields[0]!.children[0]!.fields.find((field) => field.fieldName === fieldName)!;
}

/** A book whose every value is as short as its type allows: the nullable ones null where null is shorter. */
const SHORTEST_BOOK = { id: '', title: '', subtitle: '', pages: 0, rating: 0, inPrint: true, used: null, kind: 'ESSAY', format: null, tags: [], author: { name: '' }, editor: null };

function randomBook(random: Random) {
  const pick = <T>(values: readonly T[]): T => random.pick(values);
  const text = () => 'é"\\x'.repeat(random.below(3)).slice(0, random.below(6));
  return {
    id: text(), title: text(), subtitle: pick([null, text()]), pages: pick([null, 0, -7, 123456]), rating: pick([0, 1.5, -2e-7]),
    inPrint: pick([true, false]), used: pick([null, true, false]), kind: pick(['NOVEL', 'ESSAY']), format: pick([null, 'NOVEL', 'ESSAY']),
    tags: Array.from({ length: random.below(3) }, text), author: { name: text() }, editor: pick([null, { name: text() }]),
  };
}

async function itemsAsJson(selection: string, books: readonly object[]): Promise<string[]> {
  const result = await execute({ schema: plain, document: parse(`{ shelf { ${selection} } }`), rootValue: { shelf: { books, page: { edges: books.map((node) => ({ cursor: '', node })), nodes: books, totalCount: books.length } } } });
  expect(result.errors).toBeUndefined();
  const shelf = (result.data as { shelf: { books?: unknown[]; page?: { edges: unknown[]; nodes: unknown[] } } }).shelf;
  if (shelf.books) return shelf.books.map((book) => `${JSON.stringify(book)},`);
  return shelf.page!.edges.map((edge, index) => `${JSON.stringify(edge)},${JSON.stringify(shelf.page!.nodes[index])},`);
}

describe('the fewest bytes of a response item', () => {
  const cases = (book: string) =>
    [
      ['a list entry', `books { ${book} }`, 'books'],
      ['a connection item, its edge and its node', `page { totalCount edges { cursor node { ${book} } } nodes { title } }`, 'page'],
    ] as const;

  it.each(cases(BOOK_LEAVES))('is the size of the shortest %s', async (_what, selection, fieldName) => {
    const step = stepOf(`{ shelves { ${selection} } }`, fieldName);
    const [shortest] = await itemsAsJson(selection, [SHORTEST_BOOK]);
    expect(leastItemBytes(step, fieldName === 'page')).toBe(shortest!.length);
  });

  it.each(cases(BOOK_SELECTION))('is no more than any %s takes (random books)', async (_what, selection, fieldName) => {
    const least = leastItemBytes(stepOf(`{ shelves { ${selection} } }`, fieldName), fieldName === 'page');
    const random = new Random(7);
    const items = await itemsAsJson(selection, Array.from({ length: 300 }, () => randomBook(random)));
    expect(Math.min(...items.map((item) => Buffer.byteLength(item)))).toBeGreaterThanOrEqual(least);
  });

  it('of a to-one relation has no comma of its own: its key and comma are its parent\'s', () => {
    const step = stepOf('{ shelves { books { author { name } } } }', 'books').children[0]!.fields.find((field) => field.fieldName === 'author')!;
    expect(leastItemBytes(step, false)).toBe(JSON.stringify({ name: '' }).length);
  });

  it('counts the objects of a value, not the nulls of a list', () => {
    expect([responseObjects([null, {}, undefined, {}], false), responseObjects({}, false), responseObjects(null, false), responseObjects({ nodes: [{}, {}] }, true)]).toEqual([2, 1, 0, 2]);
  });
});

describe('the fewest bytes of the entries of a list of leaves', () => {
  it.each([
    ['[String!]!', ['', '', '']],
    ['[Int]', [0, 0]],
    ['[Boolean]', [null, null]],
    ['[Kind!]', ['ESSAY']],
  ])('%s: as many entries, less one (its brackets are counted with its key), as the shortest list', (typeText, shortest) => {
    const type = plain.getType('Probe') as GraphQLObjectType;
    const field = type.getFields()[`f${typeText.replace(/\W/g, '')}`]!;
    // The parent counts the brackets as its value's 2 bytes.
    expect(2 + shortest.length * leastEntryBytes(field.type) - 1).toBe(JSON.stringify(shortest).length);
  });
});
