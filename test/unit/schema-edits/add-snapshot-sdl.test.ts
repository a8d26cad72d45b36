import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { addSnapshotSdl } from '../../../src/schema-edits/add-snapshot-sdl';
import type { SchemaFile } from '../../../src/schema-edits/snapshot-sdl-change';

const BOOKS = /* GraphQL */ `type Book @collection(name: "books") {
  id: ID!
  title: String!
  publisher: Publisher
    @join(localField: "publisherId")
  parts: [Part!]! @join(localField: "partIds")
  host: Host @join(localField: "host.id")
}
`;
const PUBLISHERS = /* GraphQL */ `type Publisher @collection(name: "publishers") {
  id: ID!
  name: String!
  books: [Book!]! @join(localField: "_id", foreignField: "publisherId", sort: "_id")
}
type Part @collection(name: "parts") { id: ID! name: String! }
type Host @collection(name: "hosts") { id: ID! name: String! }
`;
const files: SchemaFile[] = [
  { file: 'books.graphql', text: BOOKS },
  { file: 'publishers.graphql', text: PUBLISHERS },
];
const storageMap = (sources: readonly SchemaFile[]) => buildWriteModelFromSdl(withDirectiveTypeDefs(sources.map((source) => source.text))).storageMap;

describe('the SDL change that adds a snapshot to a plain join', () => {
  it('moves a top-level reference into the copy, and the reverse join that reads it with it', () => {
    const change = addSnapshotSdl(files, storageMap(files), 'Book.publisher', ['name'], undefined);
    expect(change).toMatchObject({ path: 'publisher', from: 'publisherId', fields: ['id', 'name'], existed: false });
    expect(change.edits).toEqual([
      {
        file: 'books.graphql',
        text: BOOKS.replace(
          '    @join(localField: "publisherId")\n',
          '    @snapshot(path: "publisher", fields: ["id", "name"])\n    @join(localField: "publisher.id")\n    @read(strategy: SNAPSHOT)\n',
        ),
      },
      { file: 'publishers.graphql', text: PUBLISHERS.replace('foreignField: "publisherId"', 'foreignField: "publisher.id"') },
    ]);
    // The changed schema passes the startup check, and declares what was asked.
    const after = storageMap(change.edits).relations.get('Book.publisher')!;
    expect(after.shapes.snapshot).toMatchObject({ path: 'publisher', fields: ['id', 'name'], key: 'id' });
    expect(after.defaultStrategy).toBe('snapshot');
    expect(storageMap(change.edits).relations.get('Publisher.books')!.shapes.join!.foreignField).toBe('publisher.id');
  });

  it('moves an id array into a list of copies at --path, inline directives staying inline', () => {
    const change = addSnapshotSdl(files, storageMap(files), 'Book.parts', ['name'], 'partCopies');
    expect(change.edits[0]!.text).toContain('  parts: [Part!]! @snapshot(path: "partCopies", fields: ["id", "name"]) @join(localField: "partCopies.id") @read(strategy: SNAPSHOT)\n');
    expect(change.from).toBe('partIds');
  });

  it('copies beside a key that already sits in a sub-document, moving nothing', () => {
    const change = addSnapshotSdl(files, storageMap(files), 'Book.host', ['name'], undefined);
    expect(change).toMatchObject({ path: 'host', from: undefined, fields: ['id', 'name'] });
    expect(change.edits[0]!.text).toContain('  host: Host @snapshot(path: "host", fields: ["id", "name"]) @join(localField: "host.id") @read(strategy: SNAPSHOT)\n');
  });

  it('is a no-op on a field that declares its snapshot already', () => {
    const [books] = addSnapshotSdl(files, storageMap(files), 'Book.publisher', ['name'], undefined).edits;
    const changed = [books!, { file: 'publishers.graphql', text: PUBLISHERS.replace('foreignField: "publisherId"', 'foreignField: "publisher.id"') }];
    expect(addSnapshotSdl(changed, storageMap(changed), 'Book.publisher', ['name'], undefined)).toMatchObject({ edits: [], existed: true, path: 'publisher' });
  });

  it('refuses when something else reads the reference it would move, or the copies would land on other data', () => {
    const exposed = [{ file: 'books.graphql', text: BOOKS.replace('  title: String!', '  title: String!\n  publisherId: ID!') }, files[1]!];
    expect(() => addSnapshotSdl(exposed, storageMap(exposed), 'Book.publisher', ['name'], undefined)).toThrow(
      'Book.publisherId reads "publisherId", which the copy replaces; remove it (or read it from Book.publisher) before adding the snapshot',
    );
    expect(() => addSnapshotSdl(files, storageMap(files), 'Book.publisher', ['name'], 'title')).toThrow('Book.title already stores data at "title"; pass --path to put the copies elsewhere');
    const joinedTwice = [{ file: 'books.graphql', text: BOOKS.replace('  title: String!', '  title: String!\n  press: Publisher @join(localField: "publisherId")') }, files[1]!];
    expect(() => addSnapshotSdl(joinedTwice, storageMap(joinedTwice), 'Book.publisher', ['name'], undefined)).toThrow(
      'Book.press reads "publisherId", which the copy replaces; remove it (or read it from Book.publisher) before adding the snapshot',
    );
    const rows = (field: string) => ({ file: 'rows.graphql', text: `type BookRow @collection(name: "books") { id: ID! ${field} }` });
    const readByAnotherType = [...files, rows('publisher: Publisher @join(localField: "publisherId")')];
    expect(() => addSnapshotSdl(readByAnotherType, storageMap(readByAnotherType), 'Book.publisher', ['name'], undefined)).toThrow(
      'BookRow.publisher reads "publisherId", which the copy replaces; remove it (or read it from Book.publisher) before adding the snapshot',
    );
    const storedByAnotherType = [...files, rows('publisher: String')];
    expect(() => addSnapshotSdl(storedByAnotherType, storageMap(storedByAnotherType), 'Book.publisher', ['name'], undefined)).toThrow(
      'BookRow.publisher already stores data at "publisher"; pass --path to put the copies elsewhere',
    );
    const filtered = [...files, { file: 'query.graphql', text: 'type Query { books(publisher: ID @filter(field: "publisher")): [Book!]! @list(sort: "title") }' }];
    expect(() => addSnapshotSdl(filtered, storageMap(filtered), 'Book.publisher', ['name'], undefined)).toThrow(
      'Query.books filters on "publisherId", which the copy replaces; filter on the relation\'s copy instead before adding the snapshot',
    );
    expect(() => addSnapshotSdl(files, storageMap(files), 'Publisher.books', ['title'], undefined)).toThrow(
      'Publisher.books must be read by a plain @join to the _id of its target (localField only) to add a snapshot to it',
    );
  });
});
