import { writeSidesOf } from '../../../src/advise/write-sides';
import type { WriteSides } from '../../../src/advise/recommend/write-effect';

const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list }
  type Mutation { updateAuthor(id: ID!, input: AuthorPatch!): Author! @update }
  input AuthorPatch { name: String born: Int }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
  }
  type Author @collection(name: "authors") { id: ID! name: String! born: Int! }
`;
const files = [{ file: 'schema.graphql', text: SDL }];

describe('writeSidesOf', () => {
  it('builds the write rules of the schema each change leaves, as migrate would edit it', () => {
    const sides = writeSidesOf({ files, resolvers: [], writePlans: {} }) as WriteSides;
    expect(sides.before.model.snapshots.find((location) => location.field === 'Book.authors')!.fields.map((field) => field.name)).toEqual(['name']);
    const widened = sides.after({ kind: 'widen-snapshot', coordinate: 'Book.authors', fields: ['id', 'name', 'born'] });
    expect(typeof widened !== 'string' && widened.model.snapshots.find((location) => location.field === 'Book.authors')!.fields.map((field) => field.name)).toEqual(['name', 'born']);
    const dropped = sides.after({ kind: 'drop-snapshot', coordinate: 'Book.authors' });
    expect(typeof dropped !== 'string' && dropped.model.snapshots).toEqual([]);
    // The generated mutation's plan is derived again from the changed schema.
    expect(typeof widened !== 'string' && widened.plans.updateAuthor).toEqual([{ kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['name', 'born'] }]);
  });

  it('says in one line why a schema would not start: the project\'s own, or the one a change leaves', () => {
    const handWritten = SDL.replace('type Mutation {', 'type Mutation { retire(id: ID!): Author!');
    expect(writeSidesOf({ files: [{ file: 'schema.graphql', text: handWritten }], resolvers: [], writePlans: {} })).toMatch(/^the project would not start: .*Mutation\.retire/);
    const sides = writeSidesOf({ files, resolvers: [], writePlans: {} }) as WriteSides;
    expect(sides.after({ kind: 'widen-snapshot', coordinate: 'Book.authors', fields: ['id', 'name', 'nickname'] })).toMatch(/^the schema after the change would not start: .*nickname/);
  });
});
