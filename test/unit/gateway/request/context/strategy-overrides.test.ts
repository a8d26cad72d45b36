import { GraphQLError } from 'graphql';
import { exampleStrategyOverride, parseStrategyOverrides } from '../../../../../src/gateway/operation/plan/strategy-overrides';
import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { demoSchema, schemaOf } from '../../support/demo-schema';

const storageMap = buildStorageMap(demoSchema());
const CHOICES =
  'Fields with a choice of strategy: Post.recentComments=embedded|join, Book.authors=join|snapshot, Product.parts=join|snapshot, Host.recentLogs=embedded|join, LogMessage.host=join|snapshot';

function failure(header: string): [unknown, string] {
  try {
    parseStrategyOverrides(header, storageMap);
  } catch (error) {
    if (error instanceof GraphQLError) return [error.extensions.code, error.message];
    throw error;
  }
  throw new Error('expected an error');
}

describe('parseStrategyOverrides', () => {
  it('parses the header into per-field strategies (case-insensitive strategy, spaces tolerated)', () => {
    expect([...parseStrategyOverrides('Book.authors=join, Post.recentComments = JOIN', storageMap)]).toEqual([
      ['Book.authors', 'join'],
      ['Post.recentComments', 'join'],
    ]);
  });

  it('is empty without a header', () => {
    expect(parseStrategyOverrides(undefined, storageMap).size).toBe(0);
    expect(parseStrategyOverrides('  ', storageMap).size).toBe(0);
  });

  it('accepts the only strategy of a single-shape field', () => {
    expect([...parseStrategyOverrides('Book.publisher=join', storageMap)]).toEqual([['Book.publisher', 'join']]);
  });

  it('rejects unknown fields, unknown strategies, undeclared shapes and bad syntax with the valid choices', () => {
    expect(failure('Book.title=join')).toEqual(['BAD_USER_INPUT', `x-docjoin-strategy: unknown field "Book.title". ${CHOICES}`]);
    expect(failure('Book.authors=fast')).toEqual(['BAD_USER_INPUT', `x-docjoin-strategy: unknown strategy "fast" for Book.authors; choose join or snapshot. ${CHOICES}`]);
    expect(failure('Book.authors=embedded')).toEqual([
      'BAD_USER_INPUT',
      `x-docjoin-strategy: Book.authors does not declare a @embedded shape; choose join or snapshot. ${CHOICES}`,
    ]);
    expect(failure('authors')).toEqual(['BAD_USER_INPUT', `x-docjoin-strategy: "authors" is not of the form Type.field=strategy. ${CHOICES}`]);
    expect(failure('Book.authors=join,Book.authors=snapshot')).toEqual([
      'BAD_USER_INPUT',
      `x-docjoin-strategy: Book.authors is given twice (join and snapshot). ${CHOICES}`,
    ]);
  });
});

describe('exampleStrategyOverride', () => {
  it('names the first field with a choice, switched off its default strategy', () => {
    expect(exampleStrategyOverride(storageMap)).toBe('Post.recentComments=join');
    expect(parseStrategyOverrides(exampleStrategyOverride(storageMap), storageMap).size).toBe(1);
  });

  it('is undefined when no field has a choice', () => {
    const sdl = /* GraphQL */ `
      type Query { notes: [Note!]! @list }
      type Note @collection(name: "notes") { id: ID! author: Person @join(localField: "authorId") }
      type Person @collection(name: "people") { id: ID! name: String! }
    `;
    expect(exampleStrategyOverride(buildStorageMap(schemaOf(sdl)))).toBeUndefined();
  });
});
