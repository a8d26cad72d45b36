import { formatSdlDiff } from '../../../src/migrate/format-sdl-diff';
import { dropSnapshotSdl, widenSnapshotSdl } from '../../../src/schema-edits/snapshot-sdl-change';

const SDL = /* GraphQL */ `type Book @collection(name: "books") {
  id: ID!
  authors: [Author!]!
    @snapshot(path: "authors", fields: ["id", "name"])
    @join(localField: "authors.id")
    @read(strategy: SNAPSHOT)
}
`;
const files = [{ file: 'schema.graphql', text: SDL }];

describe('the SDL change of a snapshot', () => {
  it('widens the fields list in place, leaving the rest of the text as it is', () => {
    const change = widenSnapshotSdl(files, 'Book.authors', ['thumbnailUrl', 'name']);
    expect(change).toEqual({ file: 'schema.graphql', text: SDL.replace('["id", "name"]', '["id", "name", "thumbnailUrl"]'), fieldsBefore: ['id', 'name'], fieldsAfter: ['id', 'name', 'thumbnailUrl'] });
    expect(formatSdlDiff('schema/schema.graphql', SDL, change.text)).toBe(`schema/schema.graphql:4
-    @snapshot(path: "authors", fields: ["id", "name"])
+    @snapshot(path: "authors", fields: ["id", "name", "thumbnailUrl"])
`);
    expect(widenSnapshotSdl(files, 'Book.authors', ['name']).text).toBe(SDL);
  });

  it('drops the @snapshot and the @read(strategy: SNAPSHOT), so the join serves the field', () => {
    const change = dropSnapshotSdl(files, 'Book.authors');
    expect(change.text).toBe(SDL.replace('    @snapshot(path: "authors", fields: ["id", "name"])\n', '').replace('    @read(strategy: SNAPSHOT)\n', ''));
    expect(formatSdlDiff('schema.graphql', SDL, change.text)).toBe(`schema.graphql:4
-    @snapshot(path: "authors", fields: ["id", "name"])
schema.graphql:5
-    @read(strategy: SNAPSHOT)
`);
    expect(dropSnapshotSdl([{ file: 'schema.graphql', text: change.text }], 'Book.authors').text).toBe(change.text);
    const inline = 'type Book { authors: [Author!]! @snapshot(path: "authors", fields: ["id"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT) }';
    expect(dropSnapshotSdl([{ file: 'a.graphql', text: inline }], 'Book.authors').text).toBe('type Book { authors: [Author!]! @join(localField: "authors.id") }');
  });

  it('names the field it cannot find or widen', () => {
    expect(() => widenSnapshotSdl(files, 'Book.publisher', ['name'])).toThrow(new Error('Book.publisher is not declared in the project\'s schema files (schema.graphql)'));
    expect(() => widenSnapshotSdl(files, 'Book.autors', ['name'])).toThrow(new Error('Book.autors is not declared in the project\'s schema files (schema.graphql); did you mean Book.authors?'));
    expect(() => widenSnapshotSdl([{ file: 'a.graphql', text: 'type Book { id: ID! }' }], 'Book.id', ['name'])).toThrow('Book.id declares no @snapshot to widen (in a.graphql)');
  });
});
