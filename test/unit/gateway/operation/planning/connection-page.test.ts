import { ObjectId } from 'bson';
import { graphql, buildSchema } from 'graphql';
import { planConnectionPage, toConnection } from '../../../../../src/gateway/operation/planning/connection-page';
import { parseSort } from '../../../../../src/gateway/startup/storage-map/parse-sort';
import type { StoredDocument } from '../../../../../src/gateway/documents/stored-document';
import type { SortKey } from '../../../../../src/gateway/startup/storage-map/storage-map-types';
import { storedWithDateAt } from '../../../../support/out-of-range-date';

/**
 * MongoDB stores any int64 of milliseconds as a date; past JavaScript's range (Java's "never" sentinel,
 * `new Date(Long.MAX_VALUE)`) the driver hands it over as an Invalid Date, which BSON writes back as 1970.
 * A cursor made from it would start the next page before the item: paging by endCursor would start over.
 * The item's cursor is a VALUE_OUT_OF_RANGE error instead, and every other item keeps its cursor.
 */
const sort = parseSort('at') as SortKey[];
const inRange = storedWithDateAt('65a000000000000000000001', 1_577_836_800_000n);
const never = storedWithDateAt('65a000000000000000000002', 2n ** 62n);

it('reads the stored sentinel as the driver does: an Invalid Date', () => {
  expect(Number.isNaN((never.at as Date).getTime())).toBe(true);
});

it("answers VALUE_OUT_OF_RANGE for the cursor of an item whose sort date is out of JavaScript's range, and a cursor for the others", () => {
  const page = planConnectionPage('Query.events', sort, { first: 2 });
  const connection = toConnection(page, [inRange, never], undefined, undefined);
  const [first, second] = connection.edges;
  expect(typeof first!.cursor).toBe('string');
  expect(second!.cursor).toMatchObject({
    message: expect.stringMatching(/^Query\.events: no cursor can hold the position of the item with _id "65a000000000000000000002": its sort values \(at, _id\) hold a date outside JavaScript's range/),
    extensions: { code: 'VALUE_OUT_OF_RANGE' },
  });
  expect(connection.pageInfo.startCursor).toBe(first!.cursor);
  expect(connection.pageInfo.endCursor).toBe(second!.cursor);
  // The in-range cursor still leads to the page after its item.
  const next = planConnectionPage('Query.events', sort, { first: 2, after: first!.cursor as string });
  expect(next.after!.values).toEqual([new Date('2020-01-01T00:00:00.000Z'), new ObjectId('65a000000000000000000001')]);
});

it('puts the error at the cursor fields graphql-js executes: the edge goes with it (cursor is String!), a page of nodes does not', async () => {
  const schema = buildSchema(`
    type Query { events: EventConnection }
    type EventConnection { edges: [EventEdge!]! nodes: [Event!]! pageInfo: PageInfo! }
    type EventEdge { cursor: String! node: Event! }
    type Event { id: ID! }
    type PageInfo { hasNextPage: Boolean! endCursor: String }
  `);
  const page = planConnectionPage('Query.events', sort, { first: 1 });
  const connection = toConnection(page, [never, inRange], undefined, undefined);
  const asEvent = (node: StoredDocument) => ({ id: String(node._id) });
  const events = { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: asEvent(edge.node) })), nodes: connection.nodes.map(asEvent) };
  const withEdges = await graphql({ schema, source: '{ events { edges { node { id } cursor } } }', rootValue: { events } });
  expect(withEdges.data).toEqual({ events: null });
  expect(withEdges.errors?.map((error) => [error.path, error.extensions.code])).toEqual([[['events', 'edges', 0, 'cursor'], 'VALUE_OUT_OF_RANGE']]);
  const withNodes = await graphql({ schema, source: '{ events { nodes { id } pageInfo { hasNextPage endCursor } } }', rootValue: { events } });
  expect(withNodes.data).toEqual({ events: { nodes: [{ id: '65a000000000000000000002' }], pageInfo: { hasNextPage: true, endCursor: null } } });
  expect(withNodes.errors?.map((error) => [error.path, error.extensions.code])).toEqual([[['events', 'pageInfo', 'endCursor'], 'VALUE_OUT_OF_RANGE']]);
});
