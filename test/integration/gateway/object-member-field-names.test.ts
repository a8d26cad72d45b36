import { ObjectId } from 'mongodb';
import { capturedLogger } from '../../support/captured-logger';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Field names that plain JavaScript objects inherit members by (`constructor`, `valueOf`, `toString`)
 * are fields like any other: a document holding one answers its value, one without it null, and a
 * create without it stores none. graphql's default resolver reads `parent[fieldName]` and calls what
 * it finds, and `{}` inherits a function under each of those names.
 */
const SDL = /* GraphQL */ `
  type Query { widgets(first: Int = 20, after: ID): [Widget!]! @list }
  type Mutation { createWidget(input: WidgetInput!): Widget! @create }
  type Widget @collection(name: "widgets") { id: ID! label: String constructor: String valueOf: Int part: Part @embedded }
  type Part { toString: String hasOwnProperty: Int }
  input WidgetInput { label: String constructor: String valueOf: Int }
`;
const full = new ObjectId('65a000000000000000000031');
const bare = new ObjectId('65a000000000000000000032');
let sdl: SdlGateway;
const { logger, lines } = capturedLogger();
beforeAll(async () => {
  sdl = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'object_members',
    prepare: async (db) => {
      await db.collection('widgets').insertMany([
        { _id: full, label: 'full', constructor: 'c', valueOf: 3, part: { toString: 't', hasOwnProperty: 4 } },
        { _id: bare, label: 'bare', part: {} },
      ]);
    },
    gateway: { logger },
  });
}, 60_000);
afterAll(async () => sdl?.stop());

it('answers the stored values, and null where a document lacks them, in documents and embedded objects', async () => {
  const query = '{ widgets { label constructor valueOf part { toString hasOwnProperty } } }';
  const expected = {
    widgets: [
      { label: 'full', constructor: 'c', valueOf: 3, part: { toString: 't', hasOwnProperty: 4 } },
      { label: 'bare', constructor: null, valueOf: null, part: { toString: null, hasOwnProperty: null } },
    ],
  };
  const result = await sdl.gateway.execute({ query });
  expect({ errors: result.errors, data: result.data }).toEqual({ errors: undefined, data: expected });
});

it('starts without warning that a document lacking such a field holds a function', () => {
  expect(lines.filter((line) => String(line.msg).includes('holds a function'))).toEqual([]);
});

it('creates a widget without those fields without storing anything under their names', async () => {
  const created = await sdl.gateway.execute({ query: 'mutation { createWidget(input: { label: "new" }) { id label constructor valueOf } }' });
  expect(created.errors).toBeUndefined();
  const { id, ...fields } = (created.data as { createWidget: Record<string, unknown> }).createWidget;
  expect(fields).toEqual({ label: 'new', constructor: null, valueOf: null });
  const stored = await sdl.mongo.client.db(sdl.db.databaseName).collection('widgets').findOne({ _id: new ObjectId(id as string) });
  expect(Object.keys(stored!).sort()).toEqual(['_id', 'label']);
});
