import { Long } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { applyProjection } from '../../../../src/embedded-mongo/query';
import { compileFieldProjection, projectionKeepsPaths } from '../../../../src/embedded-mongo/query/apply-projection';

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

  // MongoDB's projection parser (projection_ast): find and $project refuse these alike
  it('refuses a path that is another or lies under or above one (31249, 31250), and an empty sub-projection (51270)', () => {
    const codeOf = (projection: Record<string, unknown>): unknown => {
      try {
        applyProjection(doc, projection);
        return 'no error';
      } catch (error) {
        return [(error as CommandError).code, (error as CommandError).message];
      }
    };
    expect(codeOf({ name: 1, 'name.first': 1 })).toEqual([31249, 'Path collision at name.first remaining portion first']);
    expect(codeOf({ 'items.a.b': 1, items: { a: 1 } })).toEqual([31250, 'Path collision at items.a']);
    expect(codeOf({ 'grades.$': 1, grades: { $slice: 1 } })).toEqual([31250, 'Path collision at grades']);
    expect(codeOf({ items: {}, name: 1 })).toEqual([51270, 'An empty sub-projection is not a valid value. Found empty object at path items']);
    expect(codeOf({ items: { a: 1, b: 1 }, 'items.c': 1 })).toBe('no error');
  });

  it('reads fields named as Object.prototype\'s members only where the projection names them', () => {
    const stored = { _id: 1, x: 1, toString: { a: 1 }, constructor: 'c', valueOf: [{ b: 1 }] };
    expect(applyProjection(stored, { x: 1 })).toEqual({ _id: 1, x: 1 });
    expect(applyProjection(stored, { constructor: 1, 'toString.a': 1 })).toEqual({ _id: 1, constructor: 'c', toString: { a: 1 } });
    expect(applyProjection(stored, { x: 0, hasOwnProperty: 0 })).toEqual({ _id: 1, toString: { a: 1 }, constructor: 'c', valueOf: [{ b: 1 }] });
  });

  it('rejects mixing inclusion and exclusion', () => {
    expect(() => applyProjection(doc, { name: 1, grades: 0 })).toThrow(/Cannot do exclusion/);
  });

  it('builds new documents along the kept paths and shares the (frozen) values it keeps', () => {
    const out = applyProjection(doc, { size: 1 });
    expect(out).not.toBe(doc);
    expect(out.size).toBe(doc.size);
    expect(applyProjection(doc, {})).not.toBe(doc);
  });

  it('copies the result before specials write into it, leaving the stored document as it was', () => {
    const before = structuredClone(doc);
    const out = applyProjection(doc, { size: 1, grades: { $slice: 1 } });
    expect(out.grades).toEqual(doc.grades.slice(0, 1));
    expect(out.size).not.toBe(doc.size);
    expect(doc).toEqual(before);
  });
});

describe('applyProjection with only _id', () => {
  // MongoDB docs: "Project Fields to Return from Query" — { _id: 1 } returns only the _id field
  it('returns only _id for { _id: 1 } and everything but _id for { _id: 0 }', () => {
    expect(applyProjection(doc, { _id: 1 })).toEqual({ _id: 1 });
    expect(Object.keys(applyProjection(doc, { _id: 0 }))).toEqual(['name', 'size', 'items', 'grades']);
  });
});

describe('compileFieldProjection ($project of plain fields)', () => {
  it('includes paths with _id first, through subdocuments and arrays of documents', () => {
    const project = compileFieldProjection({ 'size.h': 1, name: true, 'items.qty': 1 })!;
    const out = project(doc);
    expect(out).toEqual({ _id: 1, name: 'n', size: { h: 14 }, items: [{ qty: 1 }, { qty: 5 }] });
    expect(Object.keys(out)).toEqual(['_id', 'name', 'size', 'items']);
    expect(compileFieldProjection({ _id: 0, grades: 1 })!(doc)).toEqual({ grades: [80, 85, 90, 95] });
  });

  it('excludes paths, and shares the values it keeps instead of copying them', () => {
    const out = compileFieldProjection({ 'size.uom': 0, items: 0, _id: 0 })!(doc);
    expect(out).toEqual({ name: 'n', size: { h: 14, w: 21 }, grades: [80, 85, 90, 95] });
    expect(out.grades).toBe(doc.grades);
  });

  it('declines expressions, $slice, $elemMatch, empty and invalid specs (left to mingo)', () => {
    expect(compileFieldProjection({ total: { $add: ['$a', 1] } })).toBeUndefined();
    expect(compileFieldProjection({ name: '$size.h' })).toBeUndefined();
    expect(compileFieldProjection({ grades: { $slice: 2 } })).toBeUndefined();
    expect(compileFieldProjection({})).toBeUndefined();
    expect(compileFieldProjection({ a: 1, b: 0 })).toBeUndefined();
  });

  it('refuses, rather than declines, the shapes an aggregation $project refuses as a find does', () => {
    expect(() => compileFieldProjection({ a: 1, 'a.b': 1 })).toThrow(expect.objectContaining({ code: 31249 }));
    expect(() => compileFieldProjection({ z: '$x', a: {} }, () => () => 1)).toThrow(expect.objectContaining({ code: 51270 }));
  });

  it('tells whether a projection passes sort paths through unchanged', () => {
    expect(projectionKeepsPaths({ _id: 1, 'host.id': 1, time: 1 }, ['time', '_id'])).toBe(true);
    expect(projectionKeepsPaths({ host: 1, time: 1 }, ['host.id', 'time', '_id'])).toBe(true);
    expect(projectionKeepsPaths({ 'host.id': 1 }, ['time'])).toBe(false);
    expect(projectionKeepsPaths({ _id: 0, time: 1 }, ['_id'])).toBe(false);
    expect(projectionKeepsPaths({ message: 0 }, ['time', 'host.id'])).toBe(true);
    expect(projectionKeepsPaths({ host: 0 }, ['host.id'])).toBe(false);
    expect(projectionKeepsPaths({ 'host.id': 0 }, ['host'])).toBe(false);
    expect(projectionKeepsPaths({ time: { $toLong: '$time' } }, ['time'])).toBe(false);
  });
});
