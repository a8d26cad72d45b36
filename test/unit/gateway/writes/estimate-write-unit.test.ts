import { ObjectId } from 'bson';
import { mutationWritePlans } from '../../../../resolvers/mutation';
import { StorageConfigError } from '../../../../src/gateway/errors/internal-errors';
import { buildStorageMap } from '../../../../src/gateway/startup/storage-map/build-storage-map';
import { buildWriteModel } from '../../../../src/gateway/startup/write-model/build-write-model';
import { estimateWriteUnit } from '../../../../src/gateway/writes/estimate-write-unit';
import { collectionsDerivedFromInsert, planInsertDerived } from '../../../../src/gateway/writes/insert-planner';
import { collectionsOfReferenceChange, planReferenceChange } from '../../../../src/gateway/writes/reference-planner';
import { findWritePlanProblems, type MutationWritePlans } from '../../../../src/gateway/writes/write-plan';
import { buildWriteEstimates } from '../../../../src/gateway/writes/write-runtime';
import { groupByCollection } from '../../../../src/gateway/writes/write-steps';
import { demoSchema, schemaOf } from '../support/demo-schema';

const schema = demoSchema();
const storageMap = buildStorageMap(schema);
const model = buildWriteModel(schema, storageMap);
const id = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

describe('estimateWriteUnit: one attempt of each demo mutation, from its plan and the write model', () => {
  it.each([
    // mutation, reads in a transaction, reads without, documents (read, and one per derived update: it may return
    // the document whose counter it bumps), write commands (collections), round trips with a commit
    ['renameAuthor', 0, 0, 0, ['authors', 'books'], 3],
    ['renamePart', 0, 0, 0, ['parts', 'products'], 3],
    ['updateHost', 0, 0, 0, ['hosts', 'logMessages'], 3],
    ['updateStockPrice', 0, 0, 0, ['stocks'], 2],
    // The post's update proves it exists in a transaction; without one, it is read first.
    ['addComment', 0, 1, 2, ['comments', 'posts'], 3],
    ['logMessage', 1, 1, 2, ['logMessages', 'hosts'], 4],
    ['publishBook', 2, 2, 12, ['books', 'authors'], 5],
    ['reassignTask', 2, 2, 3, ['tasks', 'people'], 5],
  ] as const)('%s: %i read(s) (%i without a transaction), at most %i document(s), writes %j, %i round trips', (mutation, reads, readsAlone, documents, writes, roundTrips) => {
    // The reads the transaction saves are the ones a unit without one adds to its command budget.
    expect(estimateWriteUnit(model, mutationWritePlans[mutation], { transaction: true })).toEqual({ roundTrips, documents, reads, writes, commit: true, provedReads: readsAlone - reads });
    // Without a transaction, no commit.
    expect(estimateWriteUnit(model, mutationWritePlans[mutation], { transaction: false })).toEqual({
      roundTrips: roundTrips - 1 + readsAlone - reads,
      documents,
      reads: readsAlone,
      writes,
      commit: false,
      provedReads: 0,
    });
  });

  it('a source picked by another field than _id costs a read only when some snapshot copies the changed fields', () => {
    expect(estimateWriteUnit(model, [{ kind: 'updateSource', typeName: 'Host', by: 'ipaddr', fields: ['name'] }], { transaction: false })).toMatchObject({ reads: 1, documents: 1, writes: ['hosts', 'logMessages'] });
    expect(estimateWriteUnit(model, [{ kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['firstName'] }], { transaction: false })).toMatchObject({ reads: 0, writes: ['authors'] });
  });

  it('operations add up in order (the unit runs them one after the other)', () => {
    const plan = [...mutationWritePlans.renameAuthor, ...mutationWritePlans.reassignTask];
    expect(estimateWriteUnit(model, plan, { transaction: true })).toEqual({ roundTrips: 7, documents: 3, reads: 2, writes: ['authors', 'books', 'tasks', 'people'], commit: true, provedReads: 0 });
  });

  it('counts the same collections the planners write for a real document (one command per collection)', () => {
    const comment = { _id: id(9), postId: id(1), author: 'a', comment: 'c', createdAt: new Date(0) };
    expect(groupByCollection(planInsertDerived(model, 'Comment', comment)).map((step) => step.collection)).toEqual(collectionsDerivedFromInsert(model, 'Comment'));
    const book = { _id: id(10), publisherId: id(2), authors: [{ id: id(3) }, { id: id(4) }] };
    expect(groupByCollection(planInsertDerived(model, 'Book', book)).map((step) => step.collection)).toEqual(['authors']);
    expect(collectionsDerivedFromInsert(model, 'Book')).toEqual(['authors']);
    const message = { _id: id(11), host: { id: id(5) }, time: new Date(0), message: 'm' };
    expect(groupByCollection(planInsertDerived(model, 'LogMessage', message)).map((step) => step.collection)).toEqual(collectionsDerivedFromInsert(model, 'LogMessage'));
    expect(groupByCollection(planReferenceChange(model, 'Task.owner', id(6), [id(7)], [id(8)])).map((step) => step.collection)).toEqual(collectionsOfReferenceChange(model, 'Task.owner'));
  });
});

describe('write plans checked at startup', () => {
  const mutationType = schema.getMutationType();

  it('the demo plans have no problems', () => {
    expect(findWritePlanProblems(model, mutationType, mutationWritePlans)).toEqual([]);
  });

  it('names the Mutation field and the fix for each problem', () => {
    const { renameAuthor: _missing, ...rest } = mutationWritePlans;
    const plans: MutationWritePlans = {
      ...rest,
      renamePart: [{ kind: 'updateSource', typeName: 'Part', by: 'partno', fields: ['name', 'colour'] }],
      updateHost: [{ kind: 'updateSource', typeName: 'Host', by: 'nickname', fields: ['name'] }],
      addComment: [{ kind: 'insert', typeName: 'Comment', preloaded: ['Comment.author'] }],
      publishBook: [{ kind: 'insert', typeName: 'Book' }],
      reassignTask: [{ kind: 'changeReference', coordinate: 'Person.tasks' }],
      logMessage: [{ kind: 'requireOne', typeName: 'Address' }],
    };
    expect(findWritePlanProblems(model, mutationType, plans)).toEqual([
      'Mutation.renameAuthor: no write plan; declare what its write unit does next to its resolver (writePlans in the project config), so its cost can be estimated before it runs',
      'Mutation.renamePart: write plan updateSource(Part): colour is not a stored field of Part',
      'Mutation.updateHost: write plan updateSource(Host): by: "nickname" is neither _id nor a stored path of Host',
      'Mutation.addComment: write plan insert(Comment): preloaded Comment.author: not a by-key reference of Comment',
      'Mutation.logMessage: write plan requireOne(Address): Address is not a @collection type',
      'Mutation.publishBook: write plan insert(Book): Book.authors is a list of references read in one find; declare the most keys it can hold, maxKeys: { "Book.authors": n }',
      'Mutation.reassignTask: write plan changeReference(Person.tasks): Person.tasks is not a single by-key @join',
    ]);
  });

  it('refuses an update setting one stored path twice', () => {
    const plans: MutationWritePlans = { ...mutationWritePlans, updateHost: [{ kind: 'updateSource', typeName: 'Host', by: '_id', fields: ['name', 'name'] }] };
    expect(findWritePlanProblems(model, mutationType, plans)).toEqual([
      'Mutation.updateHost: write plan updateSource(Host): Host.name (at name) and Host.name (at name) are stored one at or inside the other, and one update cannot set both; set one of them',
    ]);
  });

  it('refuses an update setting the key of a reference an @inverse list mirrors: changeReference moves it between the lists', () => {
    const sdl = /* GraphQL */ `
      type Query { noop: Int }
      type Mutation { handTask(id: ID!, owner: ID!): Boolean! retitle(id: ID!, title: String!): Boolean! recredit(id: ID!): Boolean! }
      type Person @collection(name: "people") {
        id: ID!
        tasks: [Task!]! @join(localField: "taskIds") @inverse(of: "Task.owner")
        taskCount: Int! @counter(of: "Person.tasks")
        books: [Book!]! @join(localField: "bookIds") @inverse(of: "Book.authors")
      }
      type Task @collection(name: "tasks") { id: ID! title: String! ownerId: ID owner: Person @join(localField: "ownerId") }
      type Book @collection(name: "books") { id: ID! authorIds: [ID!]! authors: [Person!]! @join(localField: "authorIds") }
    `;
    const schema = schemaOf(sdl);
    const model = buildWriteModel(schema, buildStorageMap(schema));
    expect(
      findWritePlanProblems(model, schema.getMutationType(), {
        handTask: [{ kind: 'updateSource', typeName: 'Task', by: '_id', fields: ['title', 'ownerId'] }],
        retitle: [{ kind: 'updateSource', typeName: 'Task', by: '_id', fields: ['title'] }],
        recredit: [{ kind: 'updateSource', typeName: 'Book', by: '_id', fields: ['authorIds'] }],
      }),
    ).toEqual([
      "Mutation.handTask: write plan updateSource(Task): Task.ownerId (at ownerId) is the key of Task.owner, which Person.tasks mirrors, and updateSource moves no id between those lists (nor counts of them); leave it out of the update and re-point it with changeReference('Task.owner', …), which moves it",
      'Mutation.recredit: write plan updateSource(Book): Book.authorIds (at authorIds) is the key of Book.authors, which Person.books mirrors, and updateSource moves no id between those lists (nor counts of them); leave it out of the update and replace the document (delete, then insert)',
    ]);
  });

  it('asks a bound for the parents a list key names when some role reads them in part, for they are read in one find', () => {
    const sdl = /* GraphQL */ `
      type Query { noop: Int }
      type Mutation { tag(label: String!, postIds: [ID!]!): Tag! }
      type Post @collection(name: "posts") { id: ID! tags: [Tag!]! @join(localField: "_id", foreignField: "postIds") }
      type Tag @collection(name: "tags") { id: ID! label: String! postIds: [ID!]! }
    `;
    const schema = schemaOf(sdl);
    const model = buildWriteModel(schema, buildStorageMap(schema));
    const mutationType = schema.getMutationType();
    const insert = { kind: 'insert', typeName: 'Tag' } as const;
    expect(findWritePlanProblems(model, mutationType, { tag: [insert] }, new Set(['posts']))).toEqual([
      'Mutation.tag: write plan insert(Tag): Post.tags is a list of references read in one find; declare the most keys it can hold, maxKeys: { "Post.tags": n }',
    ]);
    expect(findWritePlanProblems(model, mutationType, { tag: [insert] })).toEqual([]);
    const bounded = { ...insert, maxKeys: { 'Post.tags': 5 } };
    expect(findWritePlanProblems(model, mutationType, { tag: [bounded] }, new Set(['posts']))).toEqual([]);
    expect(estimateWriteUnit(model, [bounded], { transaction: false, readInPart: new Set(['posts']) })).toMatchObject({ reads: 1, documents: 5 });
  });

  it('asks a bound for a preloaded list into a collection some role reads in part: a source the resolver read itself is read again there', () => {
    const sdl = /* GraphQL */ `
      type Query { noop: Int }
      type Mutation { order(productIds: [ID!]!): Order! }
      type Order @collection(name: "orders") { id: ID! products: [Product!]! @join(localField: "productIds") }
      type Product @collection(name: "products") { id: ID! name: String! }
    `;
    const schema = schemaOf(sdl);
    const model = buildWriteModel(schema, buildStorageMap(schema));
    const mutationType = schema.getMutationType();
    const insert = { kind: 'insert', typeName: 'Order', preloaded: ['Order.products'] } as const;
    expect(findWritePlanProblems(model, mutationType, { order: [insert] })).toEqual([]);
    expect(findWritePlanProblems(model, mutationType, { order: [insert] }, new Set(['products']))).toEqual([
      'Mutation.order: write plan insert(Order): Order.products is a list of references read in one find; declare the most keys it can hold, maxKeys: { "Order.products": n }',
    ]);
    const bounded = { ...insert, maxKeys: { 'Order.products': 4 } };
    expect(estimateWriteUnit(model, [bounded], { transaction: false })).toMatchObject({ reads: 0 });
    expect(estimateWriteUnit(model, [bounded], { transaction: false, readInPart: new Set(['products']) })).toMatchObject({ reads: 1, documents: 4 });
  });

  it('buildWriteEstimates refuses to start without them, and ignores plans of mutations the schema lacks', () => {
    const sdl = /* GraphQL */ `
      type Query { noop: Int }
      type Mutation { renameThing(id: ID!, name: String!): Thing! }
      type Thing @collection(name: "things") { id: ID! name: String! }
    `;
    const schema = schemaOf(sdl);
    const model = buildWriteModel(schema, buildStorageMap(schema));
    const mutationType = schema.getMutationType();
    expect(() => buildWriteEstimates({ model, mutationType, plans: mutationWritePlans, transaction: true })).toThrow(StorageConfigError);
    const estimates = buildWriteEstimates({
      model,
      mutationType,
      plans: { ...mutationWritePlans, renameThing: [{ kind: 'updateSource', typeName: 'Thing', by: '_id', fields: ['name'] }] },
      transaction: true,
    });
    expect([...estimates]).toEqual([['renameThing', { roundTrips: 2, documents: 0, reads: 0, writes: ['things'], commit: true, provedReads: 0 }]]);
  });
});
