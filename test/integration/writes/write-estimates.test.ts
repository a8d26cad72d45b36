import { demoProjectOptions } from '../../support/demo-project';
import type { CommandStartedEvent, Db, Document, ObjectId } from 'mongodb';
import type { GraphQLFieldResolver } from 'graphql';
import { objectIdArgument, type GatewayContext, type WritePlan } from 'docjoin';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { mutationWritePlans } from '../../../resolvers/mutation';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { startWriteDemo } from './support/write-demo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * The static estimate of every mutation, pinned, against the round trips it really sends: its write
 * unit (checks, writes, commit) plus the read back of `{ id }` (1 find). On a server with transactions
 * (the embedded one) the bound is exact; a standalone MONGODB_URI sends no commit, one fewer.
 */
let demo: DemoGateway;
let db: Db;
let transactions: boolean;
beforeAll(async () => {
  ({ demo, db, transactions } = await startWriteDemo());
}, 60_000);
afterAll(() => demo?.stop());

const hex = (id: ObjectId) => id.toHexString();

/** Each mutation's operation, built from the demo data. */
const operations: Record<keyof typeof mutationWritePlans, () => Promise<string>> = {
  renameAuthor: async () => {
    const author = (await db.collection('authors').findOne({ countOfBooks: { $gte: 2 } }, { sort: { _id: 1 } }))!;
    return `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "Ada", lastName: "Lovelace") { id } }`;
  },
  renamePart: async () => {
    const part = (await db.collection('parts').findOne({}, { sort: { _id: 1 } }))!;
    return `mutation { renamePart(id: "${hex(part._id)}", name: "flux capacitor") { id } }`;
  },
  updateHost: async () => {
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: 1 } }))!;
    return `mutation { updateHost(id: "${hex(host._id)}", name: "estimated.example.com", ipaddr: "10.98.0.1") { id } }`;
  },
  updateStockPrice: async () => {
    const stock = (await db.collection('stocks').findOne({}, { sort: { _id: 1 } }))!;
    return `mutation { updateStockPrice(symbol: "${stock.symbol}", open: 10.5, high: 12, low: 9.25) { id } }`;
  },
  addComment: async () => {
    const post = (await db.collection('posts').findOne({}, { sort: { _id: 1 } }))!;
    return `mutation { addComment(postId: "${hex(post._id)}", author: "Grace", comment: "Estimated.") { id } }`;
  },
  logMessage: async () => {
    const host = (await db.collection('hosts').findOne({}, { sort: { _id: -1 } }))!;
    return `mutation { logMessage(ipaddr: "${host.ipaddr}", message: "estimated") { id } }`;
  },
  publishBook: async () => {
    const authors = await db.collection('authors').find({}, { sort: { _id: -1 }, limit: 2 }).toArray();
    const publisher = (await db.collection('publishers').findOne({}, { sort: { _id: 1 } }))!;
    const ids = authors.map((author) => `"${hex(author._id)}"`).join(', ');
    return `mutation { publishBook(input: { name: "Estimates", isbn: "978-0-00-000099-9", pages: 120, publishedAt: "2024-05-01T00:00:00.000Z", publisherId: "${hex(publisher._id)}", authorIds: [${ids}] }) { id } }`;
  },
  reassignTask: async () => {
    const task = (await db.collection('tasks').findOne({}, { sort: { _id: 1 } }))!;
    const owner = (await db.collection('people').findOne({ _id: { $ne: task.ownerId } }, { sort: { _id: -1 } }))!;
    return `mutation { reassignTask(taskId: "${hex(task._id)}", ownerId: "${hex(owner._id)}") { id } }`;
  },
};

describe('the static estimate of each mutation (write unit + read back), against what it sends', () => {
  it.each([
    // mutation, estimated, measured with transactions (the bound is exact, except where a resolver reads nothing back), measured without
    ['renameAuthor', 4, 4, 3], //      update authors, update books, commit; read back
    ['renamePart', 4, 4, 3], //        update parts, update products, commit; read back
    ['updateHost', 4, 4, 3], //        update hosts (recentLogs copies folded in), update logMessages, commit; read back
    ['updateStockPrice', 3, 3, 2], //  update stocks (nothing copies prices), commit; read back
    // insert, update posts (bounded push + counter: its matched count proves the post exists), commit; the estimate
    // counts a read back the resolver skips (it returns the comment it inserted). Without a transaction, the post is read first.
    ['addComment', 4, 3, 3],
    ['logMessage', 5, 5, 4], //        read the host, insert (host preloaded), update hosts, commit; read back
    ['publishBook', 6, 6, 5], //       read the publisher, read the authors, insert, update authors, commit; read back
    ['reassignTask', 6, 6, 5], //      read the task, read the new owner, update tasks, update people, commit; read back
  ] as const)('%s: estimated %i, measured %i (%i without transactions)', async (mutation, estimated, measured, measuredAlone) => {
    const result = await demo.gateway.execute({ query: await operations[mutation]() });
    expect(result.errors).toBeUndefined();
    expect(result.cost!.estimatedRoundTrips).toBe(estimated);
    expect(result.cost!.roundTrips).toBe(transactions ? measured : measuredAlone);
    expect(result.cost!.writes!.attempts).toBe(1);
  });
});

describe('aliased mutations', () => {
  it('five updateHosts in one operation count five times and are rejected before anything is sent', async () => {
    const limited = await startDemoGateway({ scale: 0.01, env: { DOCJOIN_MAX_ROUND_TRIPS: '12' } });
    const commands: CommandStartedEvent[] = [];
    const listen = (event: CommandStartedEvent) => commands.push(event);
    limited.client.on('commandStarted', listen);
    try {
      const hosts = limited.mongo.client.db(limited.dbName).collection('hosts');
      const host = (await hosts.findOne({}, { sort: { _id: 1 } }))!;
      const aliases = [1, 2, 3, 4, 5].map((n) => `h${n}: updateHost(id: "${hex(host._id)}", name: "bomb-${n}.example.com", ipaddr: "10.97.0.${n}") { id }`);
      const result = await limited.gateway.execute({ query: `mutation Bomb { ${aliases.join(' ')} }` });

      expect(result.data).toBeUndefined();
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]!.extensions!.code).toBe('COST_LIMIT_EXCEEDED');
      // Each alias: 3 write commands + 1 read back.
      expect(result.errors![0]!.extensions!.cost).toEqual({ estimated: 20, max: 12, limit: 'roundTrips', field: 'Mutation.updateHost', fieldShare: 20 });
      expect(result.cost).toMatchObject({ roundTrips: 0, estimatedRoundTrips: 20 });
      expect(commands).toEqual([]);
      expect(await hosts.findOne({ _id: host._id })).toEqual(host);
      // One of them alone is within the limit.
      const one = await limited.gateway.execute({ query: `mutation { ${aliases[0]} }` });
      expect(one.errors).toBeUndefined();
      expect(one.cost!.estimatedRoundTrips).toBe(4);
    } finally {
      limited.client.off('commandStarted', listen);
      await limited.stop();
    }
  }, 60_000);
});

describe('the write plan is a bound the write unit keeps', () => {
  /** A gateway on the demo with `renameAuthor`'s plan and, when given, its resolver replaced. */
  const withRename = (plan: WritePlan, renameAuthor?: GraphQLFieldResolver<unknown, GatewayContext>) => {
    const project = demoProjectOptions();
    const resolvers = renameAuthor ? { ...project.resolvers, Mutation: { ...(project.resolvers.Mutation as object), renameAuthor } } : project.resolvers;
    return createCheckedGateway({
      db: demo.client.db(demo.dbName),
      mongoClient: demo.client,
      mongoKind: demo.mongo.isEmbedded ? 'embedded' : 'external',
      ...project,
      resolvers,
      ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
      listen: false,
      writePlans: { ...mutationWritePlans, renameAuthor: plan },
    });
  };
  const unchanged = async (author: Document, run: () => Promise<{ errors?: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> }>) => {
    const books = await db.collection('books').find({ 'authors.id': author._id }, { sort: { _id: 1 } }).toArray();
    const result = await run();
    expect(await db.collection('authors').findOne({ _id: author._id })).toEqual(author);
    expect(await db.collection('books').find({ 'authors.id': author._id }, { sort: { _id: 1 } }).toArray()).toEqual(books);
    return result.errors?.map((error) => [error.extensions?.code, error.message]);
  };

  it('a plan that declares less than the resolver sets: the unit refuses the call before any command, nothing written', async () => {
    // Declares only firstName, which no snapshot copies. The resolver also sets `name`, copied into books.
    const gateway = await withRename([{ kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['firstName'] }]);
    try {
      const author = (await db.collection('authors').findOne({ countOfBooks: { $gte: 1 } }, { sort: { _id: -1 } }))!;
      const errors = await unchanged(author, () => gateway.execute({ query: `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "Under", lastName: "Declared") { id } }` }));
      expect(errors).toEqual([
        [
          'INTERNAL_SERVER_ERROR',
          "Mutation.renameAuthor: its write unit calls updateSource('Author') of firstName, lastName, name, which its write plan does not declare; add it to the plan (writePlans), where startup checks what it may write",
        ],
      ]);
    } finally {
      await gateway.stop();
    }
  });

  it('a resolver calling more often than its plan prices: the unit fails before the extra command, and its transaction leaves nothing', async () => {
    const twice: GraphQLFieldResolver<unknown, GatewayContext> = async (_parent, args: { id: string }, context, info) => {
      const id = objectIdArgument(args.id, 'id');
      await context.writes.run(info, async (unit) => {
        await unit.updateSource('Author', { _id: id }, { firstName: 'Once' });
        await unit.updateSource('Author', { _id: id }, { firstName: 'Twice' });
      });
      return { _id: id };
    };
    const gateway = await withRename([{ kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['firstName'] }], twice);
    try {
      const author = (await db.collection('authors').findOne({ countOfBooks: { $gte: 1 } }, { sort: { _id: 1 } }))!;
      const run = () => gateway.execute({ query: `mutation { renameAuthor(id: "${hex(author._id)}", firstName: "A", lastName: "B") { id } }` });
      if (!transactions) {
        // Without a transaction the first update stays: only the refusal is checked.
        const result = await run();
        expect(result.errors?.map((error) => error.message)).toEqual([expect.stringMatching(/would send more than the 1 command/)]);
        await db.collection('authors').replaceOne({ _id: author._id }, author);
        return;
      }
      expect(await unchanged(author, run)).toEqual([
        [
          'INTERNAL_SERVER_ERROR',
          'Mutation.renameAuthor: its write unit would send more than the 1 command(s) its write plan allows; declare what it does in its plan, next to its resolver (writePlans in the project config), so the estimate stays an upper bound',
        ],
      ]);
    } finally {
      await gateway.stop();
    }
  });
});
