import { buildSchema, print, type GraphQLObjectType } from 'graphql';
import { readByLookup } from '../../../bench/peers/advised-strategies';

const DIRECTIVES = 'directive @read(strategy: Strategy!) on FIELD_DEFINITION\nenum Strategy { JOIN LOOKUP SNAPSHOT }\ndirective @join(localField: String) on FIELD_DEFINITION';
const TYPES = `type Query { books: [Book!]! }
type Book { id: ID! publisher: Publisher @join(localField: "publisherId") @read(strategy: SNAPSHOT) }
type Publisher { id: ID! books: [Book!]! @join(localField: "_id") }`;

describe('applying lookup advice to the SDL', () => {
  it('reads each advised field by lookup, replacing its own @read, and leaves the other files as they are', () => {
    const [directives, types] = readByLookup([DIRECTIVES, TYPES], ['Book.publisher', 'Publisher.books']);
    expect(directives).toBe(DIRECTIVES);
    const schema = buildSchema(`${directives}\n${types}`);
    const directivesOf = (typeName: string, fieldName: string) =>
      (schema.getType(typeName) as GraphQLObjectType).getFields()[fieldName]!.astNode!.directives!.map((directive) => print(directive));
    expect(directivesOf('Book', 'publisher')).toEqual(['@join(localField: "publisherId")', '@read(strategy: LOOKUP)']);
    expect(directivesOf('Publisher', 'books')).toEqual(['@join(localField: "_id")', '@read(strategy: LOOKUP)']);
  });

  it('refuses a field no object type defines', () => {
    expect(() => readByLookup([TYPES], ['Book.publisher', 'Book.author'])).toThrow('no object type defines Book.author');
  });
});
