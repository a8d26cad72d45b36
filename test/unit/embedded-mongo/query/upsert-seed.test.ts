import { ObjectId } from 'bson';
import { applyUpdate, upsertSeed } from '../../../../src/embedded-mongo/query';

describe('upsertSeed', () => {
  // MongoDB docs: "Upsert with Operator Expressions" — equality clauses seed the new document
  it('takes equality fields, including $eq and $and clauses', () => {
    const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
    expect(upsertSeed({ _id: id, name: 'x', age: { $gt: 5 } })).toEqual({ _id: id, name: 'x' });
    expect(upsertSeed({ a: { $eq: 1 }, $and: [{ b: 2 }, { c: { $in: [1, 2] } }] })).toEqual({ a: 1, b: 2 });
    expect(upsertSeed({ $or: [{ a: 1 }, { b: 2 }] })).toEqual({});
    expect(upsertSeed({ $or: [{ a: 1 }] })).toEqual({ a: 1 });
    expect(upsertSeed({ a: /x/ })).toEqual({});
  });

  it('takes a $in of one value as the equality MongoDB rewrites it to, and nothing from a longer one or a regex', () => {
    expect(upsertSeed({ a: { $in: [7] }, b: { $in: [1, 2] }, c: { $in: [/x/] }, d: { $in: [] } })).toEqual({ a: 7 });
  });

  // MongoDB docs: "Upsert with Dotted _id Query" — dotted paths become embedded documents
  it('turns dotted paths into embedded documents', () => {
    expect(upsertSeed({ 'a.b': 1, 'a.c': 2, d: { e: 1 } })).toEqual({ a: { b: 1, c: 2 }, d: { e: 1 } });
  });

  it('combines with applyUpdate for a full upsert', () => {
    const seed = upsertSeed({ sku: 'abc', qty: { $lt: 5 } });
    expect(applyUpdate(seed, { $set: { qty: 10 }, $setOnInsert: { created: true } }, { isInsert: true })).toEqual({ sku: 'abc', qty: 10, created: true });
  });
});
