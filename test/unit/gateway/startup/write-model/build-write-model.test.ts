import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { buildWriteModel } from '../../../../../src/gateway/startup/write-model/build-write-model';
import { demoSchema, schemaOf } from '../../support/demo-schema';

const demo = () => {
  const schema = demoSchema();
  return buildWriteModel(schema, buildStorageMap(schema));
};

describe('the demo write model', () => {
  it('finds every snapshot, including the host snapshot inside each embedded log message', () => {
    const byCoordinate = Object.fromEntries(demo().snapshots.map((location) => [location.coordinate, location]));
    expect(Object.keys(byCoordinate).sort()).toEqual(['Book.authors', 'Host.recentLogs.host', 'LogMessage.host', 'Product.parts']);
    expect(byCoordinate['Book.authors']).toEqual({
      coordinate: 'Book.authors',
      field: 'Book.authors',
      required: true,
      collection: 'books',
      sourceType: 'Author',
      sourceCollection: 'authors',
      segments: [{ path: 'authors', isArray: true }],
      key: 'id',
      fields: [
        { name: 'name', sourcePath: 'name' },
        { name: 'thumbnailUrl', sourcePath: 'thumbnailUrl' },
      ],
      inSourceDocument: false,
    });
    // A host's recentLogs hold only its own messages, so their host copies live in the host itself.
    expect(byCoordinate['Host.recentLogs.host']).toMatchObject({
      field: 'LogMessage.host',
      collection: 'hosts',
      sourceType: 'Host',
      segments: [
        { path: 'recentLogs', isArray: true },
        { path: 'host', isArray: false },
      ],
      inSourceDocument: true,
    });
    expect([byCoordinate['LogMessage.host']!.inSourceDocument, byCoordinate['Product.parts']!.inSourceDocument]).toEqual([false, false]);
  });

  it('reads the bounds and sort of bounded arrays from their @join', () => {
    expect(demo().boundedArrays.map(({ coordinate, collection, path, childCollection, childKey, sort, limit }) => ({ coordinate, collection, path, childCollection, childKey, sort, limit }))).toEqual([
      { coordinate: 'Post.recentComments', collection: 'posts', path: 'recentComments', childCollection: 'comments', childKey: 'postId', sort: [{ path: 'createdAt', direction: -1 }, { path: '_id', direction: -1 }], limit: 3 },
      { coordinate: 'Host.recentLogs', collection: 'hosts', path: 'recentLogs', childCollection: 'logMessages', childKey: 'host.id', sort: [{ path: 'time', direction: -1 }, { path: '_id', direction: -1 }], limit: 10 },
    ]);
  });

  it('reads @inverse and @counter rules', () => {
    const model = demo();
    expect(model.inverses).toEqual([
      { coordinate: 'Person.tasks', collection: 'people', path: 'taskIds', of: 'Task.owner', truthType: 'Task', truthCollection: 'tasks', truthPath: 'ownerId' },
      { coordinate: 'Author.books', collection: 'authors', path: 'bookIds', of: 'Book.authors', truthType: 'Book', truthCollection: 'books', truthPath: 'authors.id' },
    ]);
    expect(model.counters.map((counter) => [counter.coordinate, counter.path, counter.source.kind])).toEqual([
      ['Post.commentCount', 'commentCount', 'children'],
      ['Author.countOfBooks', 'countOfBooks', 'inverse'],
    ]);
  });
});

describe('write-rule validation at startup', () => {
  const build = (sdl: string) => {
    const schema = schemaOf(sdl);
    return () => buildWriteModel(schema, buildStorageMap(schema));
  };
  const BASE = /* GraphQL */ `
    type Query { a: A }
    type A @collection(name: "as") { id: ID! n: Int! label: String! bs: [B!]! @join(localField: "bIds") kids: [B!]! @join(localField: "_id", foreignField: "aId") }
    type B @collection(name: "bs") { id: ID! a: A @join(localField: "aId") }
  `;

  it('accepts well-formed rules', () => {
    expect(build(BASE.replace('n: Int!', 'n: Int! @counter(of: "A.kids")'))().counters).toHaveLength(1);
    expect(build(BASE.replace('@join(localField: "bIds")', '@join(localField: "bIds") @inverse(of: "B.a")'))().inverses).toHaveLength(1);
  });

  it('refuses whole copies of a type whose values the writes derive: an embedded document, a bounded array', () => {
    const counted = BASE.replace('n: Int!', 'n: Int! @counter(of: "A.kids")');
    const embedded = counted.replace('type B @collection(name: "bs") { id: ID!', 'type B @collection(name: "bs") { id: ID! featured: A @embedded');
    expect(build(embedded)).toThrow(
      "B.featured: @embedded keeps whole A documents, and A.n is a @counter, which the writes keep only in A's own documents, so its copy in each B would never move; embed a type without it, or store the A's id and read it with @join",
    );
    const bounded = counted.replace('type B @collection(name: "bs") { id: ID!', 'type B @collection(name: "bs") { id: ID! recentAs: [A!]! @embedded @join(collection: "as", localField: "_id", foreignField: "bId", limit: 3) @read(strategy: EMBEDDED)');
    expect(build(bounded)).toThrow("B.recentAs: @embedded keeps whole A documents, and A.n is a @counter, which the writes keep only in A's own documents, so its copy in each B would never move; embed a type without it, or read B.recentAs by @join alone");
    expect(build(BASE.replace('type B @collection(name: "bs") { id: ID!', 'type B @collection(name: "bs") { id: ID! featured: A @embedded'))().counters).toHaveLength(0);
  });

  it('refuses whole copies of a second type over the same collection that declares a derived value as a plain field', () => {
    const counted = BASE.replace('n: Int!', 'n: Int! @counter(of: "A.kids")');
    const view = (fields: string) => `${counted}\n    type AView @collection(name: "as") { id: ID! ${fields} }\n`;
    const embedding = (sdl: string) => sdl.replace('type B @collection(name: "bs") { id: ID!', 'type B @collection(name: "bs") { id: ID! featured: AView @embedded');
    expect(build(embedding(view('count: Int! @path(path: "n") label: String!')))).toThrow(
      'B.featured: @embedded keeps whole AView documents, and A.n (at "n", which AView declares too) is a @counter, which the writes keep only in the as collection\'s documents, so its copy in each B would never move; embed a type without it, or store the AView\'s id and read it with @join',
    );
    expect(build(embedding(view('label: String!')))().counters).toHaveLength(1);
  });

  it('names Type.field and the fix for each mistake', () => {
    expect(build(BASE.replace('label: String!', 'label: String! @counter(of: "A.kids")'))).toThrow('A.label: @counter(of: "A.kids") must be on an Int field stored in a @collection type');
    expect(build(BASE.replace('n: Int!', 'n: Int! @counter(of: "A.nope")'))).toThrow('A.n: @counter(of: "A.nope") must name a list relation of A itself, as "A.field"');
    expect(build(BASE.replace('n: Int!', 'n: Int! @counter(of: "A.bs")'))).toThrow('A.n: @counter(of: "A.bs") counts A.bs, which no write can track');
    expect(build(BASE.replace('@join(localField: "bIds")', '@join(localField: "bIds") @inverse(of: "B.nope")'))).toThrow('A.bs: @inverse(of: "B.nope") names no relation field with a @join');
    expect(build(BASE.replace('@join(localField: "bIds")', '@join(localField: "bIds") @inverse(of: "A.kids")'))).toThrow(
      'A.bs: @inverse(of: "A.kids") must name a field of B that returns A, but A.kids is a field of A returning B',
    );
    expect(build(BASE.replace('foreignField: "aId")', 'foreignField: "aId") @inverse(of: "B.a")'))).toThrow('A.kids: @inverse(of: "B.a") needs a list field of a @collection type that joins by an array of ids');
  });
});

describe('@total validation at startup', () => {
  const build = (sdl: string) => {
    const schema = schemaOf(sdl);
    return () => buildWriteModel(schema, buildStorageMap(schema));
  };
  const BASE = /* GraphQL */ `
    type Query { a: A }
    type A @collection(name: "as") {
      id: ID!
      total: Float! @total(of: "A.kids", field: "pages")
      kids: [B!]! @join(localField: "_id", foreignField: "aId")
      shared: [B!]! @join(localField: "_id", foreignField: "aIds")
      bs: [B!]! @join(localField: "bIds")
    }
    type B @collection(name: "bs") { id: ID! pages: Int! price: Decimal! title: String! a: A @join(localField: "aId") aIds: [ID!]! }
    type C @collection(name: "cs") { id: ID! a: A @snapshot(path: "a", fields: ["id", "total"]) @join(localField: "a.id") @read(strategy: SNAPSHOT) }
    scalar Decimal
  `;
  const valid = BASE.replace(/\n\s*type C [^\n]*/, '');

  it('reads a total of a reverse join, with where its children keep the parent key and the number they add', () => {
    expect(build(valid)().totals).toEqual([
      {
        coordinate: 'A.total',
        collection: 'as',
        path: 'total',
        of: 'A.kids',
        childType: 'B',
        childCollection: 'bs',
        childKey: 'aId',
        parentKey: '_id',
        summedField: 'pages',
        summedPath: 'pages',
        summedScalar: 'Int',
        scalar: 'Float',
      },
    ]);
  });

  it('names Type.field and the fix for each mistake', () => {
    expect(build(valid.replace('total: Float!', 'total: Int!'))).toThrow('A.total: @total(of: "A.kids", field: "pages") sums B.pages, an Int: declare A.total as Float!, the type of its aggregate sum');
    expect(build(valid.replace('total: Float! @total(of: "A.kids", field: "pages")', 'total: Float! @total(of: "A.kids", field: "price")'))).toThrow('declare A.total as Decimal!, the type of its aggregate sum');
    expect(build(valid.replace('field: "pages"', 'field: "title"'))).toThrow('A.total: @total(of: "A.kids", field: "title") must name a stored Int, Float, Long or Decimal field of B; B.title is not one');
    expect(build(valid.replace('of: "A.kids"', 'of: "A.bs"'))).toThrow('A.total: @total(of: "A.bs", field: "pages") must name a reverse @join list of A itself (children that hold its key), as "A.field"');
    expect(build(valid.replace('of: "A.kids"', 'of: "A.shared"'))).toThrow('sums children keyed by "aIds", where B holds a list');
    // A counter or a bounded array of such children is refused the same way: their writes follow one parent key per child.
    expect(build(valid.replace('total: Float! @total(of: "A.kids", field: "pages")', 'count: Int! @counter(of: "A.shared")'))).toThrow(
      'A.count: @counter(of: "A.shared") counts children keyed by "aIds", where B holds a list: the writes that keep a counter add one per child to one parent; count a reverse join whose children hold one parent key',
    );
    expect(build(valid.replace('shared: [B!]! @join(localField: "_id", foreignField: "aIds")', 'shared: [B!]! @embedded(path: "sharedBs") @join(localField: "_id", foreignField: "aIds", limit: 3) @read(strategy: EMBEDDED)'))).toThrow(
      'A.shared: @embedded keeps the children keyed by "aIds" in each parent, where B holds a list: the writes that keep it move a child in one parent\'s copy; embed a reverse join whose children hold one parent key, or read A.shared by @join alone',
    );
    expect(build(BASE)).toThrow('C.a: @snapshot copies A.total, a @total, whose copies docjoin does not keep; leave it out of the snapshot\'s fields');
  });

  it('refuses a total, a counter or a bounded array whose children another type over their collection writes with a list of keys', () => {
    // BList's creates store "aId" as an array: the writes that keep them follow one key per child.
    const secondType = 'type BList @collection(name: "bs") { id: ID! aId: [ID!] }';
    expect(build(`${valid}\n${secondType}`)).toThrow('A.total: @total(of: "A.kids", field: "pages") sums children keyed by "aId", where BList holds a list');
    expect(build(`${valid.replace('total: Float! @total(of: "A.kids", field: "pages")', 'count: Int! @counter(of: "A.kids")')}\n${secondType}`)).toThrow('A.count: @counter(of: "A.kids") counts children keyed by "aId", where BList holds a list');
    expect(build(`${valid.replace('total: Float! @total(of: "A.kids", field: "pages")', '').replace('kids: [B!]! @join(localField: "_id", foreignField: "aId")', 'kids: [B!]! @embedded(path: "kidsCopy") @join(localField: "_id", foreignField: "aId", limit: 3) @read(strategy: EMBEDDED)')}\n${secondType}`)).toThrow(
      'A.kids: @embedded keeps the children keyed by "aId" in each parent, where BList holds a list',
    );
    expect(build(`${valid}\ntype BOther @collection(name: "bs") { id: ID! aId: ID }`)).not.toThrow();
  });
});

describe('a snapshot copying a field stored inside a copy the writes keep', () => {
  const build = (sdl: string) => () => {
    const schema = schemaOf(sdl);
    return buildWriteModel(schema, buildStorageMap(schema));
  };
  const PEOPLE = /* GraphQL */ `
    type Query { people: [Person!]! @list }
    type Person @collection(name: "people") {
      id: ID!
      name: String!
      manager: Person @snapshot(path: "manager", fields: ["id", "name"]) @join(localField: "manager.id") @read(strategy: SNAPSHOT)
      managerName: String @path(path: "manager.name")
      recent: [Note!]! @embedded(path: "recentNotes") @join(localField: "_id", foreignField: "personId", sort: "-_id", limit: 3) @read(strategy: EMBEDDED)
      latestNote: String @path(path: "recentNotes.text")
    }
    type Note @collection(name: "notes") { id: ID! text: String! person: Person @join(localField: "personId") }
    type Team @collection(name: "teams") {
      id: ID!
      lead: Person @snapshot(path: "lead", fields: ["id", "name"]) @join(localField: "lead.id") @read(strategy: SNAPSHOT)
    }
  `;

  it('is accepted while the copied fields are the source\'s own', () => {
    expect(build(PEOPLE)).not.toThrow();
  });

  it('is refused, naming the snapshot, the field, the copy it sits in and the fix: no write would reach those copies', () => {
    expect(build(PEOPLE.replace('fields: ["id", "name"]) @join(localField: "lead.id")', 'fields: ["id", "name", "managerName"]) @join(localField: "lead.id")'))).toThrow(
      'Team.lead: @snapshot copies Person.managerName, stored at "manager.name" inside Person.manager, a @snapshot copy, which the writes keep in the people documents only, so its copies here would never move; leave managerName out of the snapshot\'s fields (a read of it joins)',
    );
    expect(build(PEOPLE.replace('fields: ["id", "name"]) @join(localField: "lead.id")', 'fields: ["id", "latestNote"]) @join(localField: "lead.id")'))).toThrow(
      'Team.lead: @snapshot copies Person.latestNote, stored at "recentNotes.text" inside Person.recent, a bounded array,',
    );
  });

  it('refuses a snapshot copying a field stored inside a copy nested in an embedded object: the writes keep that copy where it is only', () => {
    const NESTED = /* GraphQL */ `
      type Query { projects: [Project!]! @list }
      type User @collection(name: "users") { id: ID! name: String! }
      type TeamInfo { lead: User @snapshot(path: "lead", fields: ["id", "name"]) @join(localField: "lead.id") @read(strategy: SNAPSHOT) }
      type Team @collection(name: "teams") {
        id: ID!
        title: String!
        info: TeamInfo @embedded(path: "info")
        leadName: String @path(path: "info.lead.name")
      }
      type Project @collection(name: "projects") {
        id: ID!
        team: Team @snapshot(path: "team", fields: ["id", "title"]) @join(localField: "team.id") @read(strategy: SNAPSHOT)
      }
    `;
    expect(build(NESTED)).not.toThrow();
    expect(build(NESTED.replace('fields: ["id", "title"]', 'fields: ["id", "title", "leadName"]'))).toThrow(
      'Project.team: @snapshot copies Team.leadName, stored at "info.lead.name" inside Team.info.lead, a @snapshot copy, which the writes keep in the teams documents only',
    );
  });

  it('refuses a @total summing a field its children store inside a snapshot copy: a write to the copy\'s source would move the copies, not the total', () => {
    const ORDERS = /* GraphQL */ `
      type Query { orders: [Order!]! @list }
      type Product @collection(name: "products") { id: ID! name: String! price: Float! }
      type Order @collection(name: "orders") {
        id: ID!
        total: Float! @total(of: "Order.lines", field: "quantity")
        lines: [Line!]! @join(localField: "_id", foreignField: "orderId", sort: "_id")
      }
      type Line @collection(name: "lines") {
        id: ID!
        quantity: Int!
        order: Order @join(localField: "orderId")
        product: Product @snapshot(path: "product", fields: ["id", "price"]) @join(localField: "product.id") @read(strategy: SNAPSHOT)
        unitPrice: Float! @path(path: "product.price")
      }
    `;
    expect(build(ORDERS)).not.toThrow();
    expect(build(ORDERS.replace('field: "quantity"', 'field: "unitPrice"'))).toThrow(
      'Order.total: @total sums Line.unitPrice, stored at "product.price" inside Line.product, a @snapshot copy, which a write to its source moves without moving this total; sum a field Line stores itself',
    );
  });
});

describe('a bounded array ordered by a copied field', () => {
  const build = (sort: string) => {
    const schema = schemaOf(/* GraphQL */ `
      type Query { posts: [Post!]! }
      type Post @collection(name: "posts") {
        id: ID!
        recentComments: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "${sort}", limit: 2) @read(strategy: EMBEDDED)
      }
      type Comment @collection(name: "comments") {
        id: ID!
        postedAt: String!
        post: Post! @join(localField: "postId")
        author: User! @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
      }
      type User @collection(name: "users") { id: ID! name: String! }
    `);
    return () => buildWriteModel(schema, buildStorageMap(schema));
  };

  it('is refused when the copy holds the sort field: an update of its source rewrites the copies but picks no child again', () => {
    expect(build('author.name')).toThrow(
      'Post.recentComments: @join(sort:) orders the array by "author.name", inside Comment.author\'s copy of User: an update of a User rewrites the copies but does not pick or order the array\'s Comments again; sort it by a field Comment stores itself, or read Post.recentComments by @join alone',
    );
  });

  it('is kept when it is ordered by a field the child stores, or by the copy\'s key, which no update of the source changes', () => {
    expect(build('-postedAt')().boundedArrays.map((array) => array.coordinate)).toEqual(['Post.recentComments']);
    expect(build('author.id')().boundedArrays.map((array) => array.coordinate)).toEqual(['Post.recentComments']);
  });
});
