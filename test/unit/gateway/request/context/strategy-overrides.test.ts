import { GraphQLError } from 'graphql';
import { exampleStrategyOverride, parseStrategyOverrides } from '../../../../../src/gateway/operation/plan/strategy-overrides';
import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { demoSchema, schemaOf } from '../../support/demo-schema';

const storageMap = buildStorageMap(demoSchema());
const CHOICES =
  'Fields with a choice of strategy: Person.tasks=join|lookup, Holding.stock=join|lookup, Task.owner=join|lookup, Post.recentComments=embedded|join|lookup, Post.comments=join|lookup, Comment.post=join|lookup, ' +
  'Publisher.books=join|lookup, Book.publisher=join|lookup, Book.authors=join|snapshot|lookup, Author.books=join|lookup, Product.parts=join|snapshot|lookup, Host.recentLogs=embedded|join|lookup, Host.logs=join|lookup, LogMessage.host=join|snapshot|lookup';

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
    expect(failure('Book.name=join')).toEqual(['BAD_USER_INPUT', `x-docjoin-strategy: Book.name is not a relation: only a relation field is read by a strategy. ${CHOICES}`]);
    expect(failure('Book.authors=fast')).toEqual(['BAD_USER_INPUT', `x-docjoin-strategy: unknown strategy "fast" for Book.authors; choose join, snapshot or lookup. ${CHOICES}`]);
    expect(failure('Book.authors=embedded')).toEqual([
      'BAD_USER_INPUT',
      `x-docjoin-strategy: Book.authors does not declare a @embedded shape; choose join, snapshot or lookup. ${CHOICES}`,
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

  it('names a join read by lookup when no field has another shape, and is undefined when nothing has a choice', () => {
    const sdl = /* GraphQL */ `
      type Query { notes: [Note!]! @list }
      type Note @collection(name: "notes") { id: ID! author: Person @join(localField: "authorId") }
      type Person @collection(name: "people") { id: ID! name: String! }
    `;
    expect(exampleStrategyOverride(buildStorageMap(schemaOf(sdl)))).toBe('Note.author=lookup');
    const embeddedOnly = /* GraphQL */ `
      type Query { notes: [Note!]! @list }
      type Note @collection(name: "notes") { id: ID! tags: [Tag!]! @embedded }
      type Tag { name: String! }
    `;
    expect(exampleStrategyOverride(buildStorageMap(schemaOf(embeddedOnly)))).toBeUndefined();
  });

  it('refuses lookup where it cannot read, saying why', () => {
    const sdl = /* GraphQL */ `
      type Query { notes: [Note!]! @list }
      type Note @collection(name: "notes") { id: ID! tags: [Tag!]! @embedded }
      type Tag { name: String! }
    `;
    expect(() => parseStrategyOverrides('Note.tags=lookup', buildStorageMap(schemaOf(sdl)))).toThrow('x-docjoin-strategy: Note.tags has no @join to read by lookup; choose embedded.');
  });

  it('says so when no field has a choice, rather than ending on an empty list', () => {
    const embeddedOnly = /* GraphQL */ `
      type Query { notes: [Note!]! @list }
      type Note @collection(name: "notes") { id: ID! tags: [Tag!]! @embedded }
      type Tag { name: String! }
    `;
    expect(() => parseStrategyOverrides('Note.nope=join', buildStorageMap(schemaOf(embeddedOnly)))).toThrow(
      /^x-docjoin-strategy: unknown field "Note.nope"\. No field of this schema has a choice of strategy \(only a field with @join can be read another way\)$/,
    );
  });
});
