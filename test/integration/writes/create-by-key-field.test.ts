import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A generated create whose input names a reference by the stored key its by-key join reads (`postId`),
 * not by the relation (`post`). The write unit checks that reference as it does one named by the
 * relation (through the viewer's read filter), so its write plan holds it and its estimate counts that
 * read: the create runs within its bound (the estimate self-check is on) instead of failing as one that
 * sends more commands than planned.
 */
const typeDefs = /* GraphQL */ `
  type Query { posts(first: Int = 20): [Post!]! @list(sort: "title") }
  type Mutation { createComment(input: CommentInput!): Comment! @create }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ], where: [{ field: "tenant", claim: "tenant" }]) {
    id: ID!
    title: String!
    tenant: String!
    commentCount: Int! @counter(of: "Post.comments")
    comments: [Comment!]! @join(localField: "_id", foreignField: "postId")
  }
  type Comment @collection(name: "comments") @access(roles: ["member"], allow: [READ, CREATE]) {
    id: ID!
    text: String!
    postId: ID
    post: Post @join(localField: "postId")
  }
  input CommentInput {
    text: String!
    postId: ID
  }
`;
const own = new ObjectId('0000000000000000000000a3');
const others = new ObjectId('0000000000000000000000b3');
const member: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann', tenant: 't1' } };

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'create_by_key_field',
    prepare: async (db) => {
      await db.collection('posts').insertMany([
        { _id: own, title: 'own', tenant: 't1', commentCount: 0 },
        { _id: others, title: 'others', tenant: 't2', commentCount: 0 },
      ]);
      await db.collection('posts').createIndex({ tenant: 1 });
      await db.collection('comments').createIndex({ postId: 1, _id: 1 });
    },
  });
}, 60_000);
afterAll(() => s?.stop());

const create = (postId: ObjectId, text: string) =>
  s.gateway.execute({ query: `mutation { createComment(input: { text: "${text}", postId: "${postId.toHexString()}" }) { text post { title commentCount } } }` }, { viewer: member });

it("creates a comment on a post the viewer reads, counted on the post, within the create's estimate", async () => {
  const created = await create(own, 'on mine');
  expect({ data: created.data, errors: created.errors }).toEqual({ data: { createComment: { text: 'on mine', post: { title: 'own', commentCount: 1 } } }, errors: undefined });
  // The reference is read through the viewer's filter (it reads posts in part, so the counter's update
  // cannot prove it): that read, the insert, the counter's update and the commit; posts are withheld
  // from the fan-out, as the role reads them in part. Then the selection's post, by its join.
  expect(created.cost?.writes).toMatchObject({ roundTrips: 4, fanOut: { comments: 1 }, withheld: ['posts'], atomic: true });
  expect(created.cost).toMatchObject({ roundTrips: 6, estimatedRoundTrips: 6 });
});

it("refuses a post of another tenant, or none, as NOT_FOUND, and writes nothing", async () => {
  for (const [postId, text] of [[others, 'on theirs'], [new ObjectId('0000000000000000000000c3'), 'on nothing']] as const) {
    const refused = await create(postId, text);
    expect(refused.errors?.map((error) => error.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(await s.db.collection('comments').countDocuments({ text })).toBe(0);
  }
  expect((await s.db.collection('posts').findOne({ _id: others }))?.commentCount).toBe(0);
});

describe('a key given inside an embedded input, and a null item of an embedded list', () => {
  const ticketDefs = /* GraphQL */ `
    type Query { tickets(first: Int = 20): [Ticket!]! @list(sort: "title") }
    type Mutation { createTicket(input: TicketInput!): Ticket! @create }
    type Agent @collection(name: "agents") @access(roles: ["member"], allow: [READ], where: [{ field: "team", claim: "team" }]) {
      id: ID!
      name: String!
      team: String!
    }
    type Routing { agentId: ID queue: String }
    type Step { label: String! }
    type Ticket @collection(name: "tickets") @access(roles: ["member"], allow: [READ, CREATE]) {
      id: ID!
      title: String!
      routing: Routing @embedded
      steps: [Step] @embedded
      agent: Agent @join(localField: "routing.agentId")
    }
    input RoutingInput { agentId: ID queue: String }
    input StepInput { label: String! }
    input TicketInput { title: String! routing: RoutingInput steps: [StepInput] }
  `;
  const teammate = new ObjectId('0000000000000000000000a1');
  const stranger = new ObjectId('0000000000000000000000b1');
  const teamMember: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann', team: 't1' } };
  let tickets: SdlGateway;
  beforeAll(async () => {
    tickets = await startSdlGateway({
      typeDefs: ticketDefs,
      dbPrefix: 'create_embedded_key',
      prepare: async (db) => {
        await db.collection('agents').insertMany([{ _id: teammate, name: 'Tia', team: 't1' }, { _id: stranger, name: 'Stan', team: 't2' }]);
        await db.collection('agents').createIndex({ team: 1 });
        await db.collection('tickets').createIndex({ title: 1, _id: 1 });
      },
    });
  }, 60_000);
  afterAll(() => tickets?.stop());

  const createTicket = (input: string) => tickets.gateway.execute({ query: `mutation { createTicket(input: ${input}) { title agent { name } steps { label } } }` }, { viewer: teamMember });

  it("checks the agent the routing names through the viewer's filter, within the create's estimate", async () => {
    const routed = await createTicket(`{ title: "routed", routing: { agentId: "${teammate.toHexString()}", queue: "q" } }`);
    expect({ data: routed.data, errors: routed.errors }).toEqual({ data: { createTicket: { title: 'routed', agent: { name: 'Tia' }, steps: null } }, errors: undefined });
    expect(routed.cost).toMatchObject({ roundTrips: 5, estimatedRoundTrips: 5 });
    const refused = await createTicket(`{ title: "to a stranger", routing: { agentId: "${stranger.toHexString()}" } }`);
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['NOT_FOUND', `Ticket.agent: ${stranger.toHexString()} not found`]]);
    expect(await tickets.db.collection('tickets').countDocuments({ title: 'to a stranger' })).toBe(0);
  });

  it('refuses a null item of an embedded list as BAD_USER_INPUT naming it, and writes nothing', async () => {
    const refused = await createTicket('{ title: "with a gap", steps: [{ label: "one" }, null] }');
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['BAD_USER_INPUT', 'input.steps[1] must be an object, not null: steps holds embedded documents']]);
    expect(await tickets.db.collection('tickets').countDocuments({ title: 'with a gap' })).toBe(0);
  });
});

describe('a key a parent picks its children by, with no relation of the child reading it', () => {
  const childDefs = /* GraphQL */ `
    type Query { posts(first: Int = 20): [Post!]! @list(sort: "title") }
    type Mutation { createComment(input: CommentInput!): Comment! @create }
    type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ], where: [{ field: "tenant", claim: "tenant" }]) {
      id: ID!
      title: String!
      tenant: String!
      commentCount: Int! @counter(of: "Post.comments")
      comments: [Comment!]! @join(localField: "_id", foreignField: "postId")
      recent: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-text", limit: 2) @read(strategy: EMBEDDED)
    }
    type Comment @collection(name: "comments") @access(roles: ["member"], allow: [READ, CREATE]) {
      id: ID!
      text: String!
      postId: ID
    }
    input CommentInput {
      text: String!
      postId: ID
    }
  `;
  let children: SdlGateway;
  beforeAll(async () => {
    children = await startSdlGateway({
      typeDefs: childDefs,
      dbPrefix: 'create_unchecked_parent',
      prepare: async (db) => {
        await db.collection('posts').insertMany([
          { _id: own, title: 'own', tenant: 't1', commentCount: 0, recent: [] },
          { _id: others, title: 'others', tenant: 't2', commentCount: 0, recent: [] },
        ]);
        await db.collection('posts').createIndex({ tenant: 1 });
        await db.collection('posts').createIndex({ title: 1, _id: 1 });
        await db.collection('comments').createIndex({ postId: 1, text: -1, _id: -1 });
      },
    });
  }, 60_000);
  afterAll(() => children?.stop());

  const comment = (postId: ObjectId, text: string) =>
    children.gateway.execute({ query: `mutation { createComment(input: { text: "${text}", postId: "${postId.toHexString()}" }) { text } }` }, { viewer: member });

  it("checks the parent through the viewer's filter: a post of its tenant gets the comment, counted and listed, within the estimate", async () => {
    const created = await comment(own, 'mine');
    expect({ data: created.data, errors: created.errors }).toEqual({ data: { createComment: { text: 'mine' } }, errors: undefined });
    // The post read through the filter, the insert, the post's counter and list in one update, the commit; then the comment read back.
    expect(created.cost).toMatchObject({ roundTrips: 5, estimatedRoundTrips: 6, writes: { roundTrips: 4, withheld: ['posts'] } });
    expect(await children.db.collection('posts').findOne({ _id: own }, { projection: { _id: 0, commentCount: 1, 'recent.text': 1 } })).toEqual({ commentCount: 1, recent: [{ text: 'mine' }] });
  });

  it("refuses another tenant's post, or none, as NOT_FOUND: no comment, and the other tenant's post untouched", async () => {
    for (const [postId, text] of [[others, 'spam'], [new ObjectId('0000000000000000000000c9'), 'void']] as const) {
      const refused = await comment(postId, text);
      expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['NOT_FOUND', `Comment.postId: ${postId.toHexString()} not found`]]);
      expect(await children.db.collection('comments').countDocuments({ text })).toBe(0);
    }
    expect(await children.db.collection('posts').findOne({ _id: others }, { projection: { _id: 0, commentCount: 1, recent: 1 } })).toEqual({ commentCount: 0, recent: [] });
  });
});

describe('a reference declared on an embedded type (Line.product inside Order.lines)', () => {
  const orderDefs = /* GraphQL */ `
    type Query { orders(first: Int = 20): [Order!]! @list(sort: "note") }
    type Mutation { createOrder(input: OrderInput!): Order! @create }
    type Product @collection(name: "products") @access(roles: ["customer"], allow: [READ], where: [{ field: "shop", claim: "shop" }]) {
      id: ID!
      name: String!
      shop: String!
    }
    type Tag @collection(name: "tags") @access(roles: ["customer"], allow: [READ]) { id: ID! label: String! }
    type Line { quantity: Int! product: Product @join(localField: "productId") tags: [Tag!] @join(localField: "tagIds") }
    type Order @collection(name: "orders") @access(roles: ["customer"], allow: [READ, CREATE]) {
      id: ID!
      note: String!
      lines: [Line] @embedded
    }
    input LineInput { quantity: Int! product: ID tags: [ID!] }
    input OrderInput { note: String! lines: [LineInput] }
  `;
  const stocked = new ObjectId('0000000000000000000000d1');
  const green = new ObjectId('0000000000000000000000e1');
  const gift = new ObjectId('0000000000000000000000e2');
  const elsewhere = new ObjectId('0000000000000000000000d2');
  const customer: Viewer = { role: 'customer', roles: ['customer'], anonymous: false, subject: 'ann', claims: { sub: 'ann', shop: 's1' } };
  let orders: SdlGateway;
  beforeAll(async () => {
    orders = await startSdlGateway({
      typeDefs: orderDefs,
      dbPrefix: 'create_nested_reference',
      prepare: async (db) => {
        await db.collection('products').insertMany([{ _id: stocked, name: 'Tea', shop: 's1' }, { _id: elsewhere, name: 'Mug', shop: 's2' }]);
        await db.collection('tags').insertMany([{ _id: green, label: 'green' }, { _id: gift, label: 'gift' }]);
        await db.collection('products').createIndex({ shop: 1 });
        await db.collection('orders').createIndex({ note: 1, _id: 1 });
      },
    });
  }, 60_000);
  afterAll(() => orders?.stop());

  const order = (note: string, product: ObjectId) =>
    orders.gateway.execute({ query: `mutation { createOrder(input: { note: "${note}", lines: [{ quantity: 2, product: "${product.toHexString()}" }] }) { note lines { quantity product { name } } } }` }, { viewer: customer });

  it("checks each line's product through the viewer's filter, within the create's estimate", async () => {
    const created = await order('tea', stocked);
    expect({ data: created.data, errors: created.errors }).toEqual({ data: { createOrder: { note: 'tea', lines: [{ quantity: 2, product: { name: 'Tea' } }] } }, errors: undefined });
    for (const [note, product] of [['from another shop', elsewhere], ['of nothing', new ObjectId('0000000000000000000000d9')]] as const) {
      const refused = await order(note, product);
      expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['NOT_FOUND', `Line.product: ${product.toHexString()} not found`]]);
      expect(await orders.db.collection('orders').countDocuments({ note })).toBe(0);
    }
  });

  it('checks a list of references inside an embedded list, every key of every line', async () => {
    const tags = (ids: ObjectId[]) => `[${ids.map((id) => `"${id.toHexString()}"`).join(', ')}]`;
    const lines = (second: ObjectId[]) => `[{ quantity: 1, product: "${stocked.toHexString()}", tags: ${tags([green])} }, { quantity: 2, tags: ${tags(second)} }]`;
    const tagged = await orders.gateway.execute({ query: `mutation { createOrder(input: { note: "tagged", lines: ${lines([green, gift])} }) { lines { tags { label } } } }` }, { viewer: customer });
    expect({ data: tagged.data, errors: tagged.errors }).toEqual({ data: { createOrder: { lines: [{ tags: [{ label: 'green' }] }, { tags: [{ label: 'green' }, { label: 'gift' }] }] } }, errors: undefined });
    const dangling = new ObjectId('0000000000000000000000e9');
    const refused = await orders.gateway.execute({ query: `mutation { createOrder(input: { note: "dangling tag", lines: ${lines([gift, dangling])} }) { note } }` }, { viewer: customer });
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['NOT_FOUND', `Line.tags: ${dangling.toHexString()} not found`]]);
  });
});

describe('a key a parent picks its children by, preset from a claim', () => {
  const memberDefs = /* GraphQL */ `
    type Query { tenants(first: Int = 20): [Tenant!]! @list(sort: "name") }
    type Mutation { createMember(input: MemberInput!): Member! @create }
    type Tenant @collection(name: "tenants") @access(roles: ["member"], allow: [READ], where: [{ field: "id", claim: "tenant" }]) {
      id: ID!
      name: String!
      members: [Member!]! @join(localField: "_id", foreignField: "tenantId")
    }
    type Member @collection(name: "members") @access(roles: ["member"], allow: [READ, CREATE], where: [{ field: "tenantId", claim: "tenant" }]) {
      id: ID!
      name: String!
      tenantId: ID
    }
    input MemberInput {
      name: String!
    }
  `;
  const tenant = new ObjectId('0000000000000000000000f5');
  let members: SdlGateway;
  beforeAll(async () => {
    members = await startSdlGateway({
      typeDefs: memberDefs,
      dbPrefix: 'create_preset_parent',
      prepare: async (db) => {
        await db.collection('tenants').insertOne({ _id: tenant, name: 'Acme' });
        await db.collection('tenants').createIndex({ name: 1, _id: 1 });
        await db.collection('members').createIndex({ tenantId: 1 });
      },
    });
  }, 60_000);
  afterAll(() => members?.stop());

  it('checks the parent the claim names, within the estimate: the tenant is read through the filter', async () => {
    const as = (claim: string): Viewer => ({ role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann', tenant: claim } });
    const created = await members.gateway.execute({ query: 'mutation { createMember(input: { name: "Ann" }) { name tenantId } }' }, { viewer: as(tenant.toHexString()) });
    expect({ data: created.data, errors: created.errors }).toEqual({ data: { createMember: { name: 'Ann', tenantId: tenant.toHexString() } }, errors: undefined });
    const none = new ObjectId('0000000000000000000000f6');
    const refused = await members.gateway.execute({ query: 'mutation { createMember(input: { name: "Ghost" }) { name } }' }, { viewer: as(none.toHexString()) });
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['NOT_FOUND', `Member.tenantId: ${none.toHexString()} not found`]]);
  });
});
