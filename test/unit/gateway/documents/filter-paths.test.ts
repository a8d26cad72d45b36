import { filterPaths } from '../../../../src/gateway/documents/filter-paths';

describe('filterPaths', () => {
  it('reads the paths of query operators, nested clauses and $elemMatch', () => {
    expect(filterPaths({ active: true, $or: [{ 'meta.tier': { $in: [1, 2] } }, { $nor: [{ age: { $lt: 18 } }] }], items: { $elemMatch: { sku: 'x' } } })).toEqual(['active', 'meta.tier', 'age', 'items', 'items.sku']);
  });

  it('reads every field reference of an $expr, not its variables', () => {
    expect(filterPaths({ $expr: { $and: [{ $lte: ['$bonus', { $ifNull: ['$salary', 100] }] }, { $eq: ['$$NOW', '$$NOW'] }] } })).toEqual(['bonus', 'salary']);
    expect(filterPaths({ $expr: { $gt: ['$$ROOT.salary', { $getField: 'cap' }, { $getField: { field: 'limit', input: '$$CURRENT' } }, '$$CURRENT.tier'] } })).toEqual(['salary', 'cap', 'limit', 'tier']);
  });

  it('reads the properties and required fields of a $jsonSchema, nested and in array items', () => {
    const schema = {
      required: ['email'],
      properties: { email: { bsonType: 'string' }, address: { properties: { zip: {} } }, lines: { items: { properties: { sku: {} } } } },
      dependencies: { card: ['billing'] },
      not: { required: ['banned'] },
      anyOf: [{ required: ['salary'] }],
    };
    expect(filterPaths({ $jsonSchema: schema })).toEqual(['email', 'address', 'address.zip', 'lines', 'lines.sku', 'card', 'billing', 'banned', 'salary']);
  });
});
