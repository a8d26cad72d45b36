import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { planProjection, snapshotFits, snapshotMissingFields, snapshotSelectedFields } from '../../../../../src/gateway/operation/planning/plan-projection';
import { toFindProjection } from '../../../../../src/gateway/operation/planning/projection';
import type { ReadStrategy, RelationField } from '../../../../../src/gateway/startup/storage-map/storage-map-types';
import { demoSchema, schemaOf, stepAt } from '../../support/demo-schema';

const schema = demoSchema();
const storageMap = buildStorageMap(schema);

function projection(query: string, path: string[], typeName: string, overrides: Record<string, ReadStrategy> = {}, variables: Record<string, unknown> = {}) {
  const { source, step } = stepAt(schema, query, path, variables);
  const strategyFor = (field: RelationField) => overrides[field.coordinate] ?? field.defaultStrategy;
  return toFindProjection(planProjection({ ...source, storageMap, strategyFor }, typeName, step.children));
}

describe('planProjection', () => {
  it('fetches only selected fields, plus the localField of selected joins and the snapshot copy that serves them', () => {
    expect(projection('{ books { name publisher { name } authors { name thumbnailUrl } } }', ['books'], 'Book')).toEqual({
      _id: 1,
      authors: 1,
      name: 1,
      publisherId: 1,
    });
  });

  it('fetches the fallback join key instead of the copy when the selection does not fit the snapshot', () => {
    expect(projection('{ books { authors { name countOfBooks } } }', ['books'], 'Book')).toEqual({ _id: 1, 'authors.id': 1 });
  });

  it('fetches the copy when one alias fits it, though another does not (each alias resolves against its own selection)', () => {
    expect(projection('{ books { a: authors { name } b: authors { name countOfBooks } } }', ['books'], 'Book')).toEqual({ _id: 1, authors: 1 });
  });

  it('follows the request strategy: a join override fetches the key only', () => {
    expect(projection('{ books { authors { name } } }', ['books'], 'Book', { 'Book.authors': 'join' })).toEqual({ _id: 1, 'authors.id': 1 });
    // Embedded: only the selected fields of each embedded document.
    expect(projection('{ posts { recentComments { author } } }', ['posts'], 'Post')).toEqual({ _id: 1, 'recentComments._id': 1, 'recentComments.author': 1 });
    expect(projection('{ posts { recentComments { author } } }', ['posts'], 'Post', { 'Post.recentComments': 'join' })).toEqual({ _id: 1 });
  });

  it('plans the nested level for its own type: a host snapshot under logs', () => {
    expect(projection('{ hosts { logs(first: 5) { message host { name } } } }', ['hosts', 'logs'], 'LogMessage')).toEqual({ _id: 1, host: 1, message: 1 });
    expect(projection('{ hosts { name logs(first: 5) { message } } }', ['hosts'], 'Host')).toEqual({ _id: 1, name: 1 });
  });

  it('resolves fragments, inline fragments, aliases and @skip', () => {
    const query = /* GraphQL */ `
      query ($skip: Boolean!) {
        people { ...names a: holdings { numberHeld } ... on Person { tasks { done } } firstName @skip(if: $skip) __typename }
      }
      fragment names on Person { lastName }
    `;
    expect(projection(query, ['people'], 'Person', {}, { skip: true })).toEqual({ _id: 1, 'holdings._id': 1, 'holdings.numberHeld': 1, lastName: 1, taskIds: 1 });
    expect(projection(query, ['people'], 'Person', {}, { skip: false })).toEqual({ _id: 1, firstName: 1, 'holdings._id': 1, 'holdings.numberHeld': 1, lastName: 1, taskIds: 1 });
  });

  it('reads only the selected fields of embedded documents, with the keys of the joins inside them', () => {
    expect(projection('{ people { holdings { numberHeld stock { symbol } } } }', ['people'], 'Person')).toEqual({
      _id: 1,
      'holdings._id': 1,
      'holdings.numberHeld': 1,
      'holdings.stockId': 1,
    });
    // Aliases: the union of what each reads.
    expect(projection('{ posts { a: recentComments { author } b: recentComments { comment post { title } } } }', ['posts'], 'Post')).toEqual({
      _id: 1,
      'recentComments._id': 1,
      'recentComments.author': 1,
      'recentComments.comment': 1,
      'recentComments.postId': 1,
    });
  });

  it('pushes an embedded field\'s first down as $slice, the largest over aliases', () => {
    const sliced = schemaOf(/* GraphQL */ `
      type Query { t: Thread }
      type Thread @collection(name: "threads") { id: ID! title: String! messages(first: Int = 20): [Message!]! @embedded(path: "msgs") }
      type Message { text: String! }
    `);
    const map = buildStorageMap(sliced);
    const { source, step } = stepAt(sliced, '{ t { title a: messages(first: 2) { text } b: messages(first: 5) { text } } }', ['t']);
    expect(toFindProjection(planProjection({ ...source, storageMap: map, strategyFor: (f) => f.defaultStrategy }, 'Thread', step.children))).toEqual({
      _id: 1,
      msgs: { $slice: 5 },
      title: 1,
    });
    const defaulted = stepAt(sliced, '{ t { messages { text } } }', ['t']);
    expect(toFindProjection(planProjection({ ...defaulted.source, storageMap: map, strategyFor: (f) => f.defaultStrategy }, 'Thread', defaulted.step.children))).toEqual({
      _id: 1,
      msgs: { $slice: 20 },
    });
  });

  it('reads a selection on another type by field name (a hand-written resolver answering a summary type from stored documents)', () => {
    const summaries = schemaOf(/* GraphQL */ `
      type Query { summaries: [BookSummary!]! }
      type BookSummary { title: String! blurb: String }
      type Book @collection(name: "books") { id: ID! title: String! @path(path: "meta.title") year: Int! }
    `);
    const map = buildStorageMap(summaries);
    const { source, step } = stepAt(summaries, '{ summaries { title blurb } }', ['summaries']);
    expect(toFindProjection(planProjection({ ...source, storageMap: map, strategyFor: (f) => f.defaultStrategy }, 'Book', step.children))).toEqual({ _id: 1, 'meta.title': 1 });
  });

  it('reads an embedded array whole when its elements slice an array of their own', () => {
    const nested = schemaOf(/* GraphQL */ `
      type Query { f: Forum }
      type Forum @collection(name: "forums") { id: ID! threads: [Thread!]! @embedded }
      type Thread { title: String! messages(first: Int = 20): [Message!]! @embedded(path: "msgs") }
      type Message { text: String! }
    `);
    const map = buildStorageMap(nested);
    const plan = (query: string) => {
      const { source, step } = stepAt(nested, query, ['f']);
      return toFindProjection(planProjection({ ...source, storageMap: map, strategyFor: (f) => f.defaultStrategy }, 'Forum', step.children));
    };
    expect(plan('{ f { threads { title messages { text } } } }')).toEqual({ _id: 1, threads: 1 });
    expect(plan('{ f { threads { title } } }')).toEqual({ _id: 1, 'threads._id': 1, 'threads.title': 1 });
  });
});

describe('snapshotFits', () => {
  const shape = storageMap.relations.get('Book.authors')!.shapes.snapshot!;
  const fits = (query: string) => {
    return snapshotFits(shape, 'Author', stepAt(schema, query, ['books', 'authors']).step);
  };
  it('fits when every selected field is copied (and __typename)', () => {
    expect(fits('{ books { authors { id name thumbnailUrl __typename } } }')).toBe(true);
  });
  it('does not fit a field outside the copy, nor a nested relation', () => {
    expect(fits('{ books { authors { name countOfBooks } } }')).toBe(false);
    expect(fits('{ books { authors { name books { name } } } }')).toBe(false);
  });
  it('names the selected fields the copy lacks (what workload capture records of a miss), through fragments and aliases', () => {
    const missing = (query: string) => {
      return snapshotMissingFields(shape, 'Author', stepAt(schema, query, ['books', 'authors']).step);
    };
    expect(missing('{ books { authors { id name thumbnailUrl __typename } } }')).toEqual([]);
    expect(missing('{ books { authors { name countOfBooks n: countOfBooks books { name } } } }')).toEqual(['countOfBooks', 'books']);
    expect(missing('{ books { authors { ...A } } } fragment A on Author { thumbnailUrl countOfBooks }')).toEqual(['countOfBooks']);
  });
  it('names the copied fields the selection reads from each copy, leaving out the key (what a copy must hold to serve it)', () => {
    const selected = (query: string) => {
      return snapshotSelectedFields(storageMap, shape, 'Author', stepAt(schema, query, ['books', 'authors']).step);
    };
    expect(selected('{ books { authors { id __typename } } }')).toEqual([]);
    expect(selected('{ books { authors { thumbnailUrl id name n: name } } }')).toEqual(['thumbnailUrl', 'name']);
    expect(selected('{ books { authors { ...A countOfBooks } } } fragment A on Author { name }')).toEqual(['name']);
  });
});
