import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { StorageConfigError } from '../../../../../src/gateway/errors/internal-errors';
import { demoSchema, schemaOf } from '../../support/demo-schema';

function problemsOf(sdl: string): readonly string[] {
  try {
    buildStorageMap(schemaOf(sdl));
  } catch (error) {
    if (error instanceof StorageConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a StorageConfigError');
}

describe('buildStorageMap on the demo schema', () => {
  const map = buildStorageMap(demoSchema());

  it('reads Book.authors as a snapshot that falls back to a join by authors.id', () => {
    const field = map.relations.get('Book.authors')!;
    expect(field.defaultStrategy).toBe('snapshot');
    expect(field.isList).toBe(true);
    expect(field.shapes.snapshot).toEqual({
      kind: 'snapshot',
      path: 'authors',
      fields: ['id', 'name', 'thumbnailUrl'],
      key: 'id',
      fallback: field.shapes.join,
    });
    expect(field.shapes.join).toEqual({
      kind: 'join',
      collection: 'authors',
      targetType: 'Author',
      localField: 'authors.id',
      foreignField: '_id',
      direction: 'byKey',
      sort: [],
      limit: undefined,
    });
  });

  it('reads Post.recentComments embedded by default, with a reverse join of the newest 3 as the alternative', () => {
    const field = map.relations.get('Post.recentComments')!;
    expect(field.defaultStrategy).toBe('embedded');
    expect(field.shapes.embedded).toEqual({ kind: 'embedded', path: 'recentComments' });
    expect(field.shapes.join).toMatchObject({
      collection: 'comments',
      localField: '_id',
      foreignField: 'postId',
      direction: 'byReference',
      sort: [{ path: 'createdAt', direction: -1 }, { path: '_id', direction: -1 }],
      limit: 3,
    });
  });

  it('lets reverse joins page: Host.logs takes first, after and before, Post.comments first and after', () => {
    expect(map.relations.get('Host.logs')!.pageArguments).toEqual({ first: true, after: true, before: true, firstDefault: 20 });
    expect(map.relations.get('Post.comments')!.pageArguments).toEqual({ first: true, after: true, before: false, firstDefault: 20 });
  });

  it('maps id of collection types to _id and leaves other scalars at their names', () => {
    expect(map.types.get('Book')!.fields.get('id')).toMatchObject({ kind: 'stored', path: '_id', isId: true });
    expect(map.types.get('Book')!.fields.get('isbn')).toMatchObject({ kind: 'stored', path: 'isbn', isId: false });
    expect(map.types.get('Book')!.collection).toBe('books');
    expect(map.types.get('Address')!.collection).toBeUndefined();
  });

  it('has exactly the demo relation fields and skips Query', () => {
    expect([...map.relations.keys()].sort()).toEqual([
      'Author.books', 'Book.authors', 'Book.publisher', 'Comment.post', 'Holding.stock', 'Host.logs', 'Host.recentLogs',
      'LogMessage.host', 'Person.addresses', 'Person.contactDetails', 'Person.holdings', 'Person.tasks', 'Post.comments',
      'Post.commentsConnection', 'Post.recentComments', 'Product.parts', 'Publisher.books', 'Task.owner',
    ]);
    expect(map.types.has('Query')).toBe(false);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(map.relations.get('Book.authors'))).toBe(true);
    expect(Object.isFrozen(map.relations.get('Book.authors')!.shapes.join)).toBe(true);
  });
});

describe('buildStorageMap static validation', () => {
  const authorSdl = /* GraphQL */ `
    type Author @collection(name: "authors") { id: ID! name: String! thumbnailUrl: String! books: [Book!]! @join(localField: "bookIds") }
  `;

  it('requires a @join next to a @snapshot, suggesting the localField', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) }
      ${authorSdl}
    `)).toEqual([
      'Book.authors: @snapshot requires a @join shape to fall back to when the selection asks for fields outside the snapshot; add @join(localField: "authors.id")',
    ]);
  });

  it('refuses a fallback @join that does not read the key inside the copy, and a copy whose fields leave the key out', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authorIds") @read(strategy: SNAPSHOT)
        editor: Author @snapshot(path: "editor", fields: ["name"]) @join(localField: "editor.id") @read(strategy: SNAPSHOT)
        reviewer: Author @snapshot(path: "reviwer", fields: ["id", "name"]) @join(localField: "reviewer.id") @read(strategy: SNAPSHOT)
      }
      ${authorSdl}
    `)).toEqual([
      'Book.authors: @snapshot keeps its key at "authors.id", but the fallback @join(localField: "authorIds") names another path; a snapshot miss joins by the key inside the copy, so use @join(localField: "authors.id") and keep the key in each copy (or set @snapshot(key:) to the copy\'s key field)',
      'Book.editor: @snapshot(fields:) must include "id", the key each copy keeps at "editor.id"; add "id" to fields',
      // Where the join names the key inside another copy path, the snapshot's path may be the misspelt one.
      'Book.reviewer: @snapshot keeps its key at "reviwer.id", but the fallback @join(localField: "reviewer.id") names another path; a snapshot miss joins by the key inside the copy, so use @join(localField: "reviwer.id") and keep the key in each copy (or set @snapshot(key:) to the copy\'s key field), or @snapshot(path: "reviewer") if the copies are kept there',
    ]);
  });

  it('says nothing more of a refused relation through the list arguments that filter by it', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { books(editor: ID, first: Int = 10): [Book!]! @list(sort: "_id") }
      type Book @collection(name: "books") {
        id: ID!
        editors(editor: ID): [Book!]! @join(collection: "books", localField: "_id", foreignField: "editor.id")
        editor: Author @snapshot(path: "editor", fields: ["name"]) @join(localField: "editor.id") @read(strategy: SNAPSHOT)
      }
      ${authorSdl}
    `)).toEqual(['Book.editor: @snapshot(fields:) must include "id", the key each copy keeps at "editor.id"; add "id" to fields']);
  });

  it('refuses a snapshot keyed by anything but the target\'s id: a key naming another of its fields, a fallback @join matching another field', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        editor: Author @snapshot(path: "editor", fields: ["id", "name"], key: "name") @join(localField: "editor.name", foreignField: "name") @read(strategy: SNAPSHOT)
        owner: Author @snapshot(path: "owner", fields: ["id", "name"], key: "_id") @join(localField: "owner._id") @read(strategy: SNAPSHOT)
        reviewer: Author @snapshot(path: "reviewer", fields: ["id", "name"], key: "authorId") @join(localField: "reviewer.authorId", foreignField: "name") @read(strategy: SNAPSHOT)
      }
      ${authorSdl}
    `)).toEqual([
      'Book.editor: @snapshot(key: "name") names Author.name, which does not read Author\'s _id; each copy keeps the _id under its key, so key it by the field that reads _id (a @collection type\'s id: ID, or one with @path(path: "_id")) or by a name Author has no field under',
      'Book.reviewer: @snapshot keeps its key at "reviewer.authorId", but the fallback @join(foreignField: "name") matches Author by another field; writes, reconcile and access rules find a copy by the Author id it keeps, so join by the id (leave out foreignField) and keep each Author\'s id at "reviewer.authorId"',
    ]);
  });

  it('keys a snapshot by whichever field reads the target\'s _id, and refuses an id that is stored elsewhere', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { o: Order }
      type Order @collection(name: "orders") {
        id: ID!
        product: Product @snapshot(path: "product", fields: ["sku", "title"], key: "sku") @join(localField: "product.sku") @read(strategy: SNAPSHOT)
        seller: Seller @snapshot(path: "seller", fields: ["name"]) @join(localField: "seller.id") @read(strategy: SNAPSHOT)
      }
      type Product @collection(name: "products") { sku: ID! @path(path: "_id") title: String! }
      type Seller @collection(name: "sellers") { id: String! name: String! }
    `)).toEqual([
      'Order.seller: @snapshot(key: "id") names Seller.id, which does not read Seller\'s _id; each copy keeps the _id under its key, so key it by the field that reads _id (a @collection type\'s id: ID, or one with @path(path: "_id")) or by a name Seller has no field under',
    ]);
  });

  it('requires @read when a field declares two shapes', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        authors: [Author!]! @snapshot(path: "authors", fields: ["id"]) @join(localField: "authors.id")
      }
      ${authorSdl}
    `)).toEqual(['Book.authors: declares 2 shapes (@join, @snapshot) but no @read; add @read(strategy: JOIN) to say which one serves reads']);
  });

  it('rejects @read naming a shape the field does not declare', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! authors: [Author!]! @join(localField: "authorIds") @read(strategy: EMBEDDED) }
      ${authorSdl}
    `)).toEqual(['Book.authors: @read(strategy: EMBEDDED) names a shape the field does not declare; declared: @join']);
  });

  it('reads LOOKUP as the default of a join, and refuses it without a join or on a connection', () => {
    const map = buildStorageMap(
      schemaOf(/* GraphQL */ `
        type Query { b: Book }
        type Book @collection(name: "books") { id: ID! authors: [Author!]! @join(localField: "authorIds") @read(strategy: LOOKUP) }
        ${authorSdl}
      `),
    );
    expect(map.relations.get('Book.authors')!.defaultStrategy).toBe('lookup');
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! notes: [Note!]! @embedded @read(strategy: LOOKUP) }
      type Note { text: String! }
    `)).toEqual(["Book.notes: @read(strategy: LOOKUP) reads a @join inside its parent's command, and the field declares none; add @join, or read it with EMBEDDED"]);
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! reviews(first: Int = 10, after: String): ReviewConnection! @join(localField: "_id", foreignField: "bookId", sort: "_id") @read(strategy: LOOKUP) }
      type Review @collection(name: "reviews") { id: ID! }
      type ReviewConnection { edges: [ReviewEdge!]! pageInfo: PageInfo! }
      type ReviewEdge { cursor: String! node: Review! }
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    `)).toEqual(['Book.reviews: @read(strategy: LOOKUP) cannot read a connection (its pages are cursors, its totalCount a count); remove @read, the connection is read by JOIN']);
  });

  it('rejects snapshot fields that are not scalar fields of the target', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        authors: [Author!]! @snapshot(path: "authors", fields: ["id", "nickname", "books"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
      }
      ${authorSdl}
    `)).toEqual([
      'Book.authors: @snapshot(fields:) names "nickname", which is not a field of Author; its fields are id, name, thumbnailUrl, books',
      'Book.authors: @snapshot(fields:) names "books", a relation of Author; a snapshot can only copy scalar fields',
    ]);
  });

  it('requires a collection for join targets', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! label: Label @join(localField: "labelId") }
      type Label { id: ID! text: String! }
    `)).toEqual(['Book.label: @join target Label has no @collection; add @collection(name: "...") to type Label, or collection: "..." to the @join and @path(path: "_id") to Label.id']);
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! label: Label @join(localField: "labelId") }
      type Label { text: String! }
    `)).toEqual(['Book.label: @join target Label has no @collection; add @collection(name: "...") to type Label or collection: "..." to the @join']);
  });

  it('accepts a join target without @collection when the join names the collection and the target reads its _id', () => {
    for (const label of ['type Label { id: ID! @path(path: "_id") text: String! }', 'type Label { text: String! }', 'type Label { id: ID! @path(path: "code") text: String! }']) {
      const map = buildStorageMap(schemaOf(/* GraphQL */ `
        type Query { b: Book }
        type Book @collection(name: "books") { id: ID! label: Label @join(collection: "labels", localField: "labelId") }
        ${label}
      `));
      expect(map.relations.get('Book.label')!.shapes.join!.collection).toBe('labels');
    }
  });

  it('refuses a join by collection into a type whose id reads a stored "id", naming both fixes', () => {
    const refusal = 'Book.label: @join(collection: "labels") reads Label documents, which keep their id as _id, but Label.id reads a stored "id" (Label has no @collection); add @collection(name: "labels") to type Label, or @path(path: "_id") to Label.id (@path(path: "id") if its documents keep an id of their own)';
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! label: Label @join(collection: "labels", localField: "labelId") }
      type Label { id: ID! text: String! }
    `)).toEqual([refusal]);
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! labels: [Label!]! @join(collection: "labels", localField: "_id", foreignField: "bookId") }
      type Label { id: ID! text: String! }
    `)).toEqual([refusal.replace('Book.label:', 'Book.labels:')]);
  });

  it('rejects page arguments on shapes that cannot page', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        authors(first: Int, after: ID): [Author!]! @join(localField: "authorIds")
        tags(after: ID): [String!]! @embedded
      }
      ${authorSdl}
    `)).toEqual([
      'Book.authors: argument "first" can\'t be honoured by its @join shape (only a reverse @join, with foreignField other than _id, can page); remove the argument or the shape',
      'Book.authors: argument "after" can\'t be honoured by its @join shape (only a reverse @join, with foreignField other than _id, can page); remove the argument or the shape',
      'Book.tags: argument "after" can\'t be honoured by its @embedded shape (an embedded array pages with first only); remove the argument or the shape',
    ]);
  });

  it('rejects object fields with no storage shape, and @path combined with a shape', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! cover: Image place: Image @embedded @path(path: "x") }
      type Image { url: String! }
    `)).toEqual([
      'Book.cover: returns Image but declares no storage shape; add @embedded (the data is inside the parent document) or @join(localField: "...") (it lives in its own collection)',
      'Book.place: @path can\'t be combined with a storage shape; use @embedded(path: "x") or @snapshot(path: "x") instead',
    ]);
  });

  it('rejects a join naming "id", the GraphQL name of "_id", where no field is stored at "id"', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { d: Doctor }
      type Doctor @collection(name: "doctors") { id: ID! visits: [Visit!]! @join(localField: "id", foreignField: "doctorId") }
      type Visit @collection(name: "visits") { id: ID! doctorId: ID! doctor: Doctor @join(localField: "doctorId", foreignField: "id") }
    `)).toEqual([
      'Doctor.visits: @join(localField: "id") names a stored field "id", which no Doctor field is stored at: Doctor\'s id is stored as "_id", so write localField: "_id"',
      'Visit.doctor: @join(foreignField: "id") names a stored field "id", which no Doctor field is stored at: Doctor\'s id is stored as "_id", so write foreignField: "_id" (or leave it out: "_id" is its default)',
    ]);
    // A field stored at "id" (beside the document's _id) is a key a join may name.
    expect(() => buildStorageMap(schemaOf(/* GraphQL */ `
      type Query { d: Doctor }
      type Doctor @collection(name: "doctors") { id: ID! code: String! @path(path: "id") }
      type Visit @collection(name: "visits") { id: ID! doctorCode: String! doctor: Doctor @join(localField: "doctorCode", foreignField: "id") }
    `))).not.toThrow();
  });

  it('rejects a stored path MongoDB cannot read: empty, with an empty segment, or a segment starting with $; and a join key with a numeric segment', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        title: String @path(path: "")
        subtitle: String @path(path: "$title")
        note: String @path(path: "meta..x")
        cover: Image @embedded(path: "meta.")
        author: Author @join(localField: "$authorId")
        firstAuthor: Author @join(localField: "authorIds.0")
        fine: String @path(path: "meta.shelf-code")
        byYear: String @path(path: "editions.2024.title")
      }
      type Image { url: String! }
      ${authorSdl}
    `)).toEqual([
      'Book.title: @path(path: "") is empty; name the stored field by its dotted path, e.g. "meta.source"',
      'Book.subtitle: @path(path: "$title") has a segment "$title" starting with "$", which MongoDB reads as an operator; name the stored field by its dotted path, e.g. "meta.source"',
      'Book.note: @path(path: "meta..x") has an empty segment; name the stored field by its dotted path, e.g. "meta.source"',
      'Book.cover: @embedded(path: "meta.") has an empty segment; name the stored field by its dotted path, e.g. "meta.source"',
      'Book.author: @join(localField: "$authorId") has a segment "$authorId" starting with "$", which MongoDB reads as an operator; name the stored field by its dotted path, e.g. "meta.source"',
      'Book.firstAuthor: @join(localField: "authorIds.0") has a numeric segment "0", which MongoDB reads as an array position where the value is an array, and docjoin matches join keys by field names; store the key at a path of field names',
    ]);
  });

  it('rejects a collection name MongoDB does not take', () => {
    expect(problemsOf('type Query { b: Book } type Book @collection(name: "") { id: ID! }')).toEqual([
      'Book: @collection(name: "") is no collection name MongoDB takes (1 to 120 characters, no "$", not system.*); name the collection the documents are in',
    ]);
    expect(problemsOf('type Query { b: Book } type Book @collection(name: "system.books") { id: ID! }')).toEqual([
      'Book: @collection(name: "system.books") is no collection name MongoDB takes (1 to 120 characters, no "$", not system.*); name the collection the documents are in',
    ]);
  });

  it('rejects an invalid sort and sort/limit on a join by _id', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") {
        id: ID!
        a: [Author!]! @join(localField: "_id", foreignField: "bookId", sort: "-created at")
        b: [Author!]! @join(localField: "authorIds", sort: "name")
      }
      ${authorSdl}
    `)).toEqual([
      'Book.a: @join sort "-created at" has an invalid path "-created at"; use paths like "-createdAt" or "name,-_id"',
      'Book.b: @join(sort:, limit:) apply to reverse joins (foreignField other than _id); a join by _id keeps the order of the keys in "authorIds"',
    ]);
  });

  it('refuses an order through a list on a field paged by cursor, and keeps it where only first pages', () => {
    const sdl = (after: string) => /* GraphQL */ `
      type Query {
        posts(first: Int${after}, orderBy: PostOrder): [Post!]! @list(sort: "title")
        writers(first: Int${after}): [Writer!]! @list(sort: "posts.title")
      }
      enum PostOrder {
        BY_TITLE @sort(by: "title")
        BY_TAG @sort(by: "tags")
        BY_COMMENT @sort(by: "comments.text")
        BY_AUTHOR @sort(by: "author.name")
      }
      type Post @collection(name: "posts") {
        id: ID!
        title: String!
        tags: [String!]!
        comments: [Comment!]! @embedded
        author: Writer @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
      }
      type Comment { text: String! }
      type Writer @collection(name: "writers") {
        id: ID!
        name: String!
        posts: [Post!]! @snapshot(path: "posts", fields: ["id", "title"]) @join(localField: "posts.id") @read(strategy: SNAPSHOT)
      }
    `;
    const advice = 'a document holds several values there and a cursor cannot keep its place among them; sort by a single-valued path, or page';
    expect(problemsOf(sdl(', after: ID'))).toEqual([
      `Query.posts: pages by cursor, but orderBy: BY_TAG sorts by "tags", which runs through the list Post.tags: ${advice} Query.posts with first only`,
      `Query.posts: pages by cursor, but orderBy: BY_COMMENT sorts by "comments.text", which runs through the list Post.comments: ${advice} Query.posts with first only`,
      `Query.writers: pages by cursor, but its @list sorts by "posts.title", which runs through the list Writer.posts: ${advice} Query.writers with first only`,
    ]);
    expect(() => buildStorageMap(schemaOf(sdl('')))).not.toThrow();
  });

  it('refuses a first whose default no page holds: every request leaving it out would be refused', () => {
    expect(problemsOf(/* GraphQL */ `
      type Query { authors(first: Int = -1): [Author!]! @list }
      type Author @collection(name: "authors") {
        id: ID!
        books(first: Int = 500): [Book!]! @join(localField: "_id", foreignField: "authorId")
        shortList(first: Int = 100): [Book!]! @join(localField: "_id", foreignField: "authorId", limit: 3)
      }
      type Book @collection(name: "books") { id: ID! }
    `)).toEqual([
      'Author.books: argument "first" defaults to 500, but a page holds 0 to 100 items; give it a default in that range',
      'Query.authors: argument "first" defaults to -1, but a page holds 0 to 100 items; give it a default in that range',
    ]);
  });

  it('reads @path into the stored path', () => {
    const map = buildStorageMap(schemaOf(/* GraphQL */ `
      type Query { b: Book }
      type Book @collection(name: "books") { id: ID! city: String @path(path: "address.city") }
    `));
    expect(map.types.get('Book')!.fields.get('city')).toMatchObject({ kind: 'stored', path: 'address.city', isId: false });
  });
});
