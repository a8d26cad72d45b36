import { Long, ObjectId } from 'bson';
import type { GraphQLResolveInfo } from 'graphql';
import { bsonType, isObjectId } from '../../../../src/gateway/documents/bson-type';
import { keyString } from '../../../../src/gateway/documents/key-string';
import { filterAndSort } from '../../../../src/gateway/operation/planning/in-memory-list';
import { toMongoFilter } from '../../../../src/gateway/operation/planning/list-filter';
import { createStoredFieldResolver } from '../../../../src/gateway/request/strategies/stored-field-resolver';
import type { GatewayContext } from '../../../../src/gateway/request/context/request-context';

/**
 * A project's resolvers can hold a second copy of bson (under `docjoin serve`, a TypeScript config that
 * imports `bson` gets its ES module build through jiti): its ObjectIds must work wherever docjoin's do.
 */
let OtherObjectId: typeof ObjectId;
beforeAll(() => {
  jest.isolateModules(() => {
    OtherObjectId = (require('bson') as typeof import('bson')).ObjectId;
  });
});

const HEX = '65a000000000000000000001';

it('the isolated copy is really another class', () => {
  expect(new OtherObjectId(HEX) instanceof ObjectId).toBe(false);
});

it('tells BSON values by their tag, whichever copy of bson made them', () => {
  expect(isObjectId(new ObjectId(HEX))).toBe(true);
  expect(isObjectId(new OtherObjectId(HEX))).toBe(true);
  expect([HEX, null, undefined, {}, new Date(0), Long.fromNumber(1), [new ObjectId(HEX)]].map(isObjectId)).toEqual([false, false, false, false, false, false, false]);
  expect(bsonType(Long.fromNumber(1))).toBe('Long');
  expect(bsonType({ _bsontype: 7 })).toBeUndefined();
});

it('an ObjectId from another copy keys, filters and serializes like docjoin\'s own', () => {
  const other = new OtherObjectId(HEX);
  expect(keyString(other)).toBe(keyString(new ObjectId(HEX)));
  expect(toMongoFilter({ _id: other })).toEqual({ _id: other });
  expect(toMongoFilter({ authorId: { in: [other] } })).toEqual({ authorId: { $in: [other] } });
  const readId = createStoredFieldResolver({
    kind: 'stored',
    typeName: 'Post',
    fieldName: 'id',
    coordinate: 'Post.id',
    path: '_id',
    isId: true,
    valueType: { name: 'ID', isEnum: false, isList: false, nonNull: true },
  })!;
  expect(readId({ _id: other }, {}, {} as GatewayContext, {} as GraphQLResolveInfo)).toBe(HEX);
  const documents = [{ _id: new ObjectId('65a000000000000000000002') }, { _id: new ObjectId(HEX) }];
  expect(filterAndSort(documents, [{ _id: other }], undefined)).toEqual([documents[1]]);
});
