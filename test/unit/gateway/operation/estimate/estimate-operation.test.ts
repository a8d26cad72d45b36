import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { ASSUMED_VALUE_BYTES, estimateOperation, type CostEstimate } from '../../../../../src/gateway/operation/estimate/estimate-operation';
import { estimateRequest } from '../../../../../src/gateway/operation/estimate/estimate-request';
import { buildOperationPlan, type OperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';
import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import type { ReadStrategy, RelationField } from '../../../../../src/gateway/startup/storage-map/storage-map-types';
import { demoSchema } from '../../support/demo-schema';

const schema = demoSchema();
/** Entries assumed in a list nothing bounds (reference arrays, embedded arrays without `first`). */
const L = 20;
const storageMap = buildStorageMap(schema);

/** The plan of a lone operation without variables. */
function planOf(operation: OperationDefinitionNode): OperationPlan {
  return buildOperationPlan(schema, { kind: Kind.DOCUMENT, definitions: [operation] }, operation, {});
}

type Totals = Pick<CostEstimate, 'roundTrips' | 'documents' | 'depth'>;

function estimate(query: string, options: { overrides?: Record<string, ReadStrategy>; variables?: Record<string, unknown>; assumedListSize?: number } = {}): Totals {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const strategyFor = (field: RelationField) => options.overrides?.[field.coordinate] ?? field.defaultStrategy;
  if (options.variables) {
    const estimated = estimateRequest({ schema, storageMap, document, operation, variables: options.variables, strategyFor });
    return (estimated && totals(estimated)) as Totals;
  }
  return totals(estimateOperation({ schema, storageMap, plan: buildOperationPlan(schema, document, operation, {}), variableValues: {}, strategyFor, ...(options.assumedListSize && { assumedListSize: options.assumedListSize }) }));
}

/** The three totals the cases pin (the heaviest fields and the response nodes are checked on their own). */
function totals({ roundTrips, documents, depth }: CostEstimate): Totals {
  return { roundTrips, documents, depth };
}

describe('estimateOperation: the operations issue 3 pins', () => {
  it.each([
    ['{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }', 2, 50 + 50],
    ['{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }', 3, 50 + 50 + 50 * L],
    // people → stocks, tasks (same moment) → owners: the tasks arrive in one batch, so owners cost 1.
    ['{ people(first: 100) { holdings { stock { symbol } } tasks { description owner { lastName } } } }', 4, 100 + 100 * L + 100 * L + 100 * L],
    ['{ hosts(first: 20) { name logs(first: 5) { message } } }', 2, 20 + 100],
    ['{ posts(first: 10) { recentComments { author } } }', 1, 10],
  ])('%s: %i round trips', (query, roundTrips, documents) => {
    expect(estimate(query)).toEqual({ roundTrips, documents, depth: query.includes('owner') || query.includes('stock') ? 3 : 2 });
  });
});

describe('estimateOperation: strategies', () => {
  it('switching Book.authors to join adds one round trip; to snapshot with a fitting selection, none', () => {
    const query = '{ books(first: 10) { authors { name } } }';
    expect(estimate(query).roundTrips).toBe(1);
    expect(estimate(query, { overrides: { 'Book.authors': 'join' } })).toEqual({ roundTrips: 2, documents: 10 + 10 * L, depth: 2 });
  });

  it('a fitting snapshot being backfilled counts its fallback join too (copies not yet reached are joined)', () => {
    const query = '{ books(first: 10) { authors { name } } }';
    const estimated = (copyBackfilling?: (coordinate: string) => boolean) => {
      const operation = parse(query).definitions[0] as OperationDefinitionNode;
      const strategyFor = (field: RelationField) => field.defaultStrategy;
      return totals(estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor, ...(copyBackfilling && { copyBackfilling }) }));
    };
    expect(estimated()).toEqual({ roundTrips: 1, documents: 10, depth: 2 });
    expect(estimated((coordinate) => coordinate === 'Book.authors')).toEqual({ roundTrips: 2, documents: 10 + 10 * L, depth: 2 });
    expect(estimated((coordinate) => coordinate === 'Book.publisher')).toEqual({ roundTrips: 1, documents: 10, depth: 2 });
  });

  it('saturates rather than walk on when backfilled copies double the walk at every level', () => {
    // Post.recentComments being backfilled is read both ways (the copies, and the join for posts without
    // them), so each level walks what is below it twice: 2^22 walks here, stopped at the budget.
    const nested = (levels: number): string => (levels === 0 ? 'title' : `recentComments { post { ${nested(levels - 1)} } }`);
    const operation = parse(`{ posts(first: 1) { ${nested(22)} } }`).definitions[0] as OperationDefinitionNode;
    const estimated = (copyBackfilling: (coordinate: string) => boolean) =>
      totals(estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy, copyBackfilling }));
    expect(estimated(() => false).roundTrips).toBe(1 + 22);
    expect(estimated((coordinate) => coordinate === 'Post.recentComments')).toEqual({ roundTrips: Number.MAX_SAFE_INTEGER, documents: Number.MAX_SAFE_INTEGER, depth: 1 + 2 * 22 });
  });

  it('an embedded field with first bounds the documents below it by first', () => {
    expect(estimate('{ posts(first: 10) { recentComments { post { title } } } }')).toEqual({ roundTrips: 2, documents: 10 + 10 * L, depth: 3 });
    expect(estimate('{ posts(first: 10) { recentComments { author } } }', { overrides: { 'Post.recentComments': 'join' } })).toEqual({
      roundTrips: 2,
      documents: 10 + 10 * 3, // the @join limit of 3 per post
      depth: 2,
    });
  });

  it('a reverse join with first: 0 or a first over the cap sends nothing', () => {
    expect(estimate('{ hosts(first: 5) { logs(first: 0) { message } } }').roundTrips).toBe(1);
    expect(estimate('{ hosts(first: 5) { logs(first: 101) { message } } }').roundTrips).toBe(1);
    expect(estimate('{ hosts(first: 0) { logs { message } } }')).toEqual({ roundTrips: 0, documents: 0, depth: 2 });
  });

  it('a keyset page after an id on Post.comments (-createdAt) adds one anchor read per level; so does an _id-ordered relation page (to check that the item belongs to the parent), but not a root list ordered by _id', () => {
    const id = '6955b9000500000000000020';
    // posts, the anchor (shared by the 10 parents), one aggregate.
    expect(estimate(`{ posts(first: 10) { comments(first: 3, after: "${id}") { id } } }`)).toEqual({ roundTrips: 3, documents: 10 + 1 + 10 * 3, depth: 2 });
    // Two pages (two loaders) after the same id: each group counts its anchor read (the runtime shares it: 4).
    expect(estimate(`{ posts(first: 10) { a: comments(first: 3, after: "${id}") { id } b: comments(first: 2, after: "${id}") { id } } }`).roundTrips).toBe(5);
    // Two levels, each anchored: posts, anchor + aggregate, Comment.post, anchor + aggregate.
    expect(estimate(`{ posts(first: 5) { comments(first: 2, after: "${id}") { post { comments(first: 2, after: "${id}") { id } } } } }`).roundTrips).toBe(1 + 2 + 1 + 2);
    expect(estimate(`{ books(first: 7, after: "${id}") { publisher { books(first: 7, after: "${id}") { name } } } }`)).toEqual({ roundTrips: 4, documents: 7 + 7 + 1 + 7 * 7, depth: 3 });
    expect(estimate(`{ posts(first: 10) { comments(first: 3) { id } } }`).roundTrips).toBe(2);
  });

  it('an after that is no id sends nothing for the field', () => {
    expect(estimate('{ posts(first: 10) { comments(first: 3, after: "bm90IGEgY3Vyc29y") { id } } }')).toEqual({ roundTrips: 1, documents: 10, depth: 2 });
  });

  it('root fields default to 20 items and count one find each', () => {
    expect(estimate('{ books { name } authors { name } book(id: "x") { name } }')).toEqual({ roundTrips: 3, documents: 20 + 20 + 1, depth: 1 });
  });
});

describe('estimateOperation: aliases, fragments, directives, unions', () => {
  it('counts aliased root fields each time (the alias bomb)', () => {
    const aliases = Array.from({ length: 10 }, (_, i) => `b${i}: books(first: 100) { publisher { name } }`).join(' ');
    expect(estimate(`{ ${aliases} }`)).toEqual({ roundTrips: 20, documents: 10 * (100 + 100), depth: 2 });
  });

  it('merges aliases of one join under one parent (one loader, one batch) but counts their documents', () => {
    expect(estimate('{ books(first: 10) { publisher { name } p: publisher { location } } }')).toEqual({ roundTrips: 2, documents: 10 + 10 + 10, depth: 2 });
  });

  it('counts one aggregate for the bounded pages of one collection on a level, whatever their pages', () => {
    expect(estimate('{ hosts(first: 10) { a: logs(first: 5) { message } b: logs(first: 6) { message } } }').roundTrips).toBe(2);
    expect(estimate('{ hosts(first: 10) { a: logs(first: 5) { message } b: logs(first: 5) { time } } }').roundTrips).toBe(2);
    // recentComments in join mode (limit 3) and comments(first: 3) are one query shape: one aggregate.
    expect(estimate('{ posts(first: 10) { recentComments { author } comments(first: 3) { comment } } }', { overrides: { 'Post.recentComments': 'join' } }).roundTrips).toBe(2);
  });

  it('expands named and inline fragments', () => {
    const query = /* GraphQL */ `
      query { books(first: 10) { ...B ... on Book { authors { countOfBooks } } } }
      fragment B on Book { publisher { ...P } }
      fragment P on Publisher { name books(first: 2) { name } }
    `;
    expect(estimate(query)).toEqual({ roundTrips: 4, documents: 10 + 10 + 10 * L + 10 * 2, depth: 3 });
  });

  it('applies @skip and @include with variables', () => {
    const query = 'query ($withAuthors: Boolean!, $skipPublisher: Boolean = false) { books(first: 10) { authors @include(if: $withAuthors) { countOfBooks } publisher @skip(if: $skipPublisher) { name } } }';
    expect(estimate(query, { variables: { withAuthors: true } }).roundTrips).toBe(3);
    expect(estimate(query, { variables: { withAuthors: false } }).roundTrips).toBe(2);
    expect(estimate(query, { variables: { withAuthors: false, skipPublisher: true } })).toEqual({ roundTrips: 1, documents: 10, depth: 1 });
  });

  it('reads first from variables, and returns undefined when the variables do not coerce', () => {
    const query = 'query ($n: Int) { hosts(first: $n) { logs(first: $n) { message } } }';
    expect(estimate(query, { variables: { n: 3 } })).toEqual({ roundTrips: 2, documents: 3 + 9, depth: 2 });
    const document = parse(query);
    const operation = document.definitions[0] as OperationDefinitionNode;
    expect(estimateRequest({ schema, storageMap, document, operation, variables: { n: 'three' }, strategyFor: (f) => f.defaultStrategy })).toBeUndefined();
  });

  it('walks every member of a union', () => {
    const query = '{ person(id: "x") { contactDetails { __typename ... on EmailContact { email } ... on PhoneContact { phone } } } }';
    expect(estimate(query)).toEqual({ roundTrips: 1, documents: 1, depth: 2 });
  });

  it('ignores introspection', () => {
    expect(estimate('{ __schema { types { name fields { name type { name ofType { name } } } } } }')).toEqual({ roundTrips: 0, documents: 0, depth: 0 });
  });
});

describe('estimateOperation: the heaviest fields', () => {
  it('names the field that accounts for the most round trips and the most documents, and whether it takes first', () => {
    const operation = parse('{ books(first: 10) { publisher { name } authors { countOfBooks books { name } } } }').definitions[0] as OperationDefinitionNode;
    const { heaviest } = estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy });
    expect(heaviest).toEqual({
      roundTrips: { coordinate: 'Query.books', amount: 1, takesFirst: true, places: 1 },
      documents: { coordinate: 'Author.books', amount: 10 * L * L, takesFirst: false, places: 1 },
      responseNodes: { coordinate: 'Author.books', amount: 10 * L * L, takesFirst: false, places: 1 },
    });
  });

  it('counts the places a field is selected in: each alias and each repeated level', () => {
    const operation = parse('{ a: books(first: 2) { publisher { books { publisher { name } } } } b: books(first: 3) { name } }').definitions[0] as OperationDefinitionNode;
    const { heaviest } = estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy });
    expect(heaviest!.roundTrips).toEqual({ coordinate: 'Query.books', amount: 2, takesFirst: true, places: 2 });
  });
});

describe('estimateOperation: the response bytes', () => {
  const bytesOf = (query: string, valueBytes?: (typeName: string, fieldName: string) => number | undefined) => {
    const operation = parse(query).definitions[0] as OperationDefinitionNode;
    return estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy, ...(valueBytes && { valueBytes }) }).responseBytes;
  };

  it('counts each object as JSON: braces, every response key, and each leaf at its measured average (ASSUMED_VALUE_BYTES unmeasured)', () => {
    // 10 books of {"name":…,"publisher":{…}} and 10 publishers of {"name":…}.
    const book = (name: number) => 2 + ('name'.length + 4 + name) + ('publisher'.length + 4);
    const publisher = (name: number) => 2 + ('name'.length + 4 + name);
    const query = '{ books(first: 10) { name publisher { name } } }';
    expect(bytesOf(query)).toBe(10 * book(ASSUMED_VALUE_BYTES) + 10 * publisher(ASSUMED_VALUE_BYTES));
    const measured = (typeName: string, fieldName: string) => (({ 'Book.name': 40, 'Publisher.name': 12 }) as Record<string, number>)[`${typeName}.${fieldName}`];
    expect(bytesOf(query, measured)).toBe(10 * book(40) + 10 * publisher(12));
  });

  it('counts an alias by its response key, and __typename by the type name', () => {
    expect(bytesOf('{ books(first: 1) { title: name __typename } }')).toBe(2 + ('title'.length + 4 + ASSUMED_VALUE_BYTES) + ('__typename'.length + 4 + '"Book"'.length));
  });
});

describe('estimateOperation: one batch per loader and level', () => {
  // Every load of a moment resolves at one time (cached documents are answered inside the batch), so
  // each level's objects arrive together and each of its loaders sends one batch.
  it('a join whose parents come partly from a cache still costs one batch per level', () => {
    const query = '{ people(first: 10) { lastName tasks { owner { lastName tasks { description } } } } }';
    expect(estimate(query).roundTrips).toBe(1 + 1 + 1 + 1);
  });

  it('the same Type.field at two places costs one batch at each', () => {
    const once = estimate('{ books(first: 10) { publisher { name } } }').roundTrips;
    const twice = estimate('{ books(first: 10) { publisher { name } } b: books(first: 10) { publisher { name books(first: 1) { name } } } }').roundTrips;
    expect(once).toBe(2);
    // 2 root finds, a publisher batch under each, Publisher.books under the second.
    expect(twice).toBe(2 + 2 + 1);
  });

  it('assumes unbounded lists hold at most assumedListSize entries', () => {
    expect(estimate('{ author(id: "x") { books { name } } }', { assumedListSize: 7 })).toEqual({ roundTrips: 2, documents: 1 + 7, depth: 2 });
  });

  it('saturates the documents instead of overflowing on absurd fan-out; the round trips stay one per level', () => {
    let selection = 'name';
    for (let level = 0; level < 8; level++) selection = `authors { countOfBooks books { ${selection} } }`;
    const result = estimate(`{ books(first: 100) { ${selection} } }`);
    expect(result.depth).toBe(17);
    expect(result.documents).toBe(Number.MAX_SAFE_INTEGER);
    expect(result.roundTrips).toBe(1 + 16);
  });

  it('a field repeated below itself: one batch at each level', () => {
    expect(estimate('{ books(first: 10) { authors { countOfBooks books { authors { countOfBooks } } } } }')).toEqual({
      roundTrips: 1 + 1 + 1 + 1,
      documents: 10 + 10 * L + 10 * L * L + 10 * L * L * L,
      depth: 4,
    });
  });
});

describe('estimateOperation: mutations', () => {
  const writes: Record<string, { roundTrips: number; documents: number }> = { updateHost: { roundTrips: 3, documents: 0 }, addComment: { roundTrips: 4, documents: 1 } };
  function estimateMutation(query: string): Totals {
    const operation = parse(query).definitions[0] as OperationDefinitionNode;
    return totals(estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy, writeEstimate: (field) => writes[field] }));
  }
  const id = '6955b9000800000000000001';

  it('adds each mutation field\'s write unit to the read back of its selection', () => {
    // 3 writes + the host read back (1 document); recentLogs are embedded.
    expect(estimateMutation(`mutation { updateHost(id: "${id}", name: "h", ipaddr: "10.0.0.1") { name recentLogs { message } } }`)).toEqual({ roundTrips: 4, documents: 1, depth: 2 });
    // 4 (1 check of one document) + the comment read back + its post joined.
    expect(estimateMutation(`mutation { addComment(postId: "${id}", author: "a", comment: "c") { id post { title } } }`)).toEqual({ roundTrips: 6, documents: 3, depth: 2 });
  });

  it('counts aliased mutations each time: they run one after the other, each with its own write unit', () => {
    const aliases = [1, 2, 3, 4, 5].map((n) => `h${n}: updateHost(id: "${id}", name: "h${n}", ipaddr: "10.0.0.${n}") { id }`).join(' ');
    expect(estimateMutation(`mutation { ${aliases} }`)).toEqual({ roundTrips: 5 * (3 + 1), documents: 5, depth: 1 });
  });

  it('a mutation without a write estimate cannot be estimated (an internal error, not a silent 0)', () => {
    expect(() => estimateMutation(`mutation { renamePart(id: "${id}", name: "p") { id } }`)).toThrow('Mutation.renamePart: no write estimate (EstimateInput.writeEstimate)');
  });
});

describe('estimateOperation: @aggregate fields', () => {
  const full = (query: string, readsEveryRow?: (collection: string) => boolean) => {
    const operation = parse(query).definitions[0] as OperationDefinitionNode;
    return estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy, ...(readsEveryRow && { readsEveryRow }) });
  };

  it('counts one aggregate per level, the documents its $group scans, and the groups each parent gets', () => {
    // posts (10) + one aggregate over their comments (up to L each scanned, and per post one more reply for
    // the groups); per post one value, 2 groups of 1 key object each.
    const estimate = full('{ posts(first: 10) { commentsAggregate { count groupBy(by: [AUTHOR], first: 2) { key { author } count } } } }');
    expect(totals(estimate)).toEqual({ roundTrips: 2, documents: 10 + 10 * L + 10, depth: 4 });
    expect(estimate.responseNodes).toBe(10 + 10 + 10 * 2 + 10 * 2);
    // A thousand groups per post are a thousand objects each, which the response limits see.
    expect(full('{ posts(first: 10) { commentsAggregate { groupBy(by: [AUTHOR], first: 1000) { count } } } }').responseNodes).toBe(10 + 10 + 10 * 1000);
  });

  it('reads a bare count from the @counter, unless an access rule hides some children or a figure needs the aggregate', () => {
    expect(totals(full('{ posts(first: 10) { commentsAggregate { count } } }'))).toEqual({ roundTrips: 1, documents: 10, depth: 2 });
    expect(totals(full('{ posts(first: 10) { commentsAggregate { count } } }', () => false))).toEqual({ roundTrips: 2, documents: 10 + 10 * L, depth: 2 });
    expect(totals(full('{ posts(first: 10) { commentsAggregate { count max { createdAt } } } }'))).toEqual({ roundTrips: 2, documents: 10 + 10 * L, depth: 3 });
  });

  it('sends nothing for a groupBy the resolver refuses', () => {
    expect(totals(full('{ posts(first: 10) { commentsAggregate { groupBy(by: [], first: 2) { count } } } }'))).toEqual({ roundTrips: 1, documents: 10, depth: 3 });
  });

  it('caps the documents the $group scans at the collection\'s size, not the replies beyond them', () => {
    const operation = parse('{ posts(first: 10) { commentsAggregate { count groupBy(by: [AUTHOR], first: 2) { count } } } }').definitions[0] as OperationDefinitionNode;
    const sized = estimateOperation({ schema, storageMap, plan: planOf(operation), variableValues: {}, strategyFor: (field) => field.defaultStrategy, collectionSize: (collection) => (collection === 'comments' ? 30 : undefined) });
    // 10 posts × L comments scanned, but comments holds 30; per post one more reply for the groups.
    expect(totals(sized)).toEqual({ roundTrips: 2, documents: 10 + 30 + 10, depth: 3 });
  });
});
