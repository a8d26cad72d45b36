import { Long } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/commands/command-error';
import { applyProjection } from '../../../../src/embedded-mongo/query';

const doc = {
  _id: 1,
  name: 'n',
  size: { h: 14, w: 21, uom: 'cm' },
  items: [
    { sku: 'a', qty: 1 },
    { sku: 'b', qty: 5 },
  ],
  grades: [80, 85, 90, 95],
};

describe('applyProjection', () => {
  // MongoDB docs: "Project Fields to Return from Query" — _id is included unless excluded
  it('includes fields (with _id by default) in document order', () => {
    expect(applyProjection(doc, { name: 1 })).toEqual({ _id: 1, name: 'n' });
    expect(applyProjection(doc, { name: 1, _id: 0 })).toEqual({ name: 'n' });
    expect(Object.keys(applyProjection(doc, { grades: 1, name: true }))).toEqual(['_id', 'name', 'grades']);
    expect(applyProjection(doc, { missing: 1 })).toEqual({ _id: 1 });
  });

  it('excludes fields', () => {
    expect(applyProjection(doc, { items: 0, grades: 0, size: 0 })).toEqual({ _id: 1, name: 'n' });
    expect(applyProjection({ _id: 1, a: 1 }, { _id: 0 })).toEqual({ a: 1 });
    expect(applyProjection(doc, { 'size.uom': 0, items: 0, grades: 0, name: 0, _id: 0 })).toEqual({ size: { h: 14, w: 21 } });
  });

  // MongoDB docs: "Project Specific Fields in Embedded Documents" / "... in an Array"
  it('follows dotted paths into documents and arrays of documents', () => {
    expect(applyProjection(doc, { 'size.uom': 1 })).toEqual({ _id: 1, size: { uom: 'cm' } });
    expect(applyProjection(doc, { 'items.sku': 1, _id: 0 })).toEqual({ items: [{ sku: 'a' }, { sku: 'b' }] });
    expect(applyProjection(doc, { size: { h: 1 }, _id: 0 })).toEqual({ size: { h: 14 } });
    expect(applyProjection({ a: [1, { b: 2, c: 3 }] }, { 'a.b': 1 })).toEqual({ a: [{ b: 2 }] });
  });

  // MongoDB docs: "$slice (projection)"
  it('applies $slice with n, -n and [skip, n]', () => {
    expect(applyProjection(doc, { grades: { $slice: 2 } })).toEqual({ ...doc, grades: [80, 85] });
    expect(applyProjection(doc, { grades: { $slice: -1 }, _id: 0, name: 0, size: 0, items: 0 })).toEqual({ grades: [95] });
    expect(applyProjection(doc, { grades: { $slice: [1, 2] }, name: 1 })).toEqual({ _id: 1, name: 'n', grades: [85, 90] });
    expect(applyProjection(doc, { grades: { $slice: [-3, 2] }, name: 1 })).toEqual({ _id: 1, name: 'n', grades: [85, 90] });
    expect(applyProjection(doc, { grades: { $slice: [10, 2] }, name: 1 })).toEqual({ _id: 1, name: 'n', grades: [] });
  });

  // MongoDB docs: "$elemMatch (projection)" — only the first matching element; omitted when none matches
  it('applies $elemMatch', () => {
    expect(applyProjection(doc, { items: { $elemMatch: { qty: { $gt: 2 } } } })).toEqual({ _id: 1, items: [{ sku: 'b', qty: 5 }] });
    expect(applyProjection(doc, { items: { $elemMatch: { qty: { $gt: 10 } } } })).toEqual({ _id: 1 });
    expect(applyProjection(doc, { grades: { $elemMatch: { $gte: Long.fromNumber(85) } }, _id: 0 })).toEqual({ grades: [85] });
  });

  // MongoDB docs: "$ (projection)" — the first element that matches the query condition on the array
  it('applies the positional $ using the filter', () => {
    expect(applyProjection(doc, { 'grades.$': 1 }, { grades: { $gte: 90 } })).toEqual({ _id: 1, grades: [90] });
    expect(applyProjection(doc, { 'items.$': 1, _id: 0 }, { 'items.sku': 'b' })).toEqual({ items: [{ sku: 'b', qty: 5 }] });
    expect(() => applyProjection(doc, { 'grades.$': 1 }, { name: 'n' })).toThrow(CommandError);
  });

  it('computes expression fields', () => {
    expect(applyProjection(doc, { total: { $size: '$grades' }, name: 1 })).toEqual({ _id: 1, name: 'n', total: 4 });
  });

  it('rejects mixing inclusion and exclusion', () => {
    expect(() => applyProjection(doc, { name: 1, grades: 0 })).toThrow(/Cannot do exclusion/);
  });

  it('returns copies, never the stored objects', () => {
    const out = applyProjection(doc, { size: 1 });
    expect(out.size).not.toBe(doc.size);
    expect(applyProjection(doc, {})).not.toBe(doc);
  });
});
