import { Int32 } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import {
  compileFilter,
  distinctValues,
  firstSorted,
  parseCollation,
  runPipeline,
  sortDocuments,
  valueComparator,
  type Collation,
} from '../../../../src/embedded-mongo/query';
import { planQuery } from '../../../../src/embedded-mongo/storage/query-planner';

function collation(spec: Record<string, unknown>): Collation {
  const parsed = parseCollation(spec);
  if (parsed === undefined) throw new Error('expected a non-simple collation');
  return parsed;
}

function failure(spec: unknown): { code: number; codeName: string; message: string } {
  try {
    parseCollation(spec);
  } catch (error) {
    if (error instanceof CommandError) return { code: error.code, codeName: error.codeName, message: error.message };
    throw error;
  }
  throw new Error('expected parseCollation to fail');
}

describe('parseCollation', () => {
  it('treats { locale: "simple" } as no collation (binary comparison)', () => {
    expect(parseCollation({ locale: 'simple' })).toBeUndefined();
  });

  it('fills in every option, in MongoDB order', () => {
    expect(collation({ strength: new Int32(2), locale: 'fr_CA' }).toDocument()).toEqual({
      locale: 'fr_CA',
      caseLevel: false,
      caseFirst: 'off',
      strength: 2,
      numericOrdering: false,
      alternate: 'non-ignorable',
      maxVariable: 'punct',
      normalization: false,
      backwards: false,
      version: '57.1',
    });
  });

  it('fails like the IDL: type, enum and range first, then unknown and missing fields', () => {
    expect(failure('en')).toMatchObject({ code: 14, codeName: 'TypeMismatch' });
    expect(failure({})).toEqual({ code: 40414, codeName: 'IDLFailedToParse', message: "BSON field 'collation.locale' is missing but a required field" });
    expect(failure({ locale: 'en', nope: 1 })).toEqual({ code: 40415, codeName: 'IDLUnknownField', message: "BSON field 'collation.nope' is an unknown field." });
    expect(failure({ locale: 1 })).toMatchObject({ code: 14, message: "BSON field 'collation.locale' is the wrong type 'int', expected type 'string'" });
    expect(failure({ locale: 'en', caseLevel: 1 })).toMatchObject({ code: 14, message: "BSON field 'collation.caseLevel' is the wrong type 'int', expected type 'bool'" });
    expect(failure({ locale: 'en', alternate: 'maybe' })).toMatchObject({ code: 2, message: "Enumeration value 'maybe' for field 'collation.alternate' is not a valid value." });
    expect(failure({ locale: 'en', strength: 9 })).toMatchObject({ code: 51024, codeName: 'Location51024' });
  });

  it('rejects locales ICU would replace, naming ICU`s choice when it has one', () => {
    expect(failure({ locale: 'xx' })).toEqual({ code: 2, codeName: 'BadValue', message: `Field 'locale' is invalid in: { locale: "xx" }` });
    expect(failure({ locale: 'en_XX' }).message).toBe(`Field 'locale' is invalid in: { locale: "en_XX" }. Did you mean 'en'?`);
    expect(failure({ locale: '' }).message).toBe(`Field 'locale' cannot be the empty string in: { locale: "" }`);
    expect(parseCollation({ locale: 'de@collation=phonebook' })?.spec.locale).toBe('de@collation=phonebook');
  });

  it('rejects options that contradict the strength', () => {
    expect(failure({ locale: 'en', strength: 1, backwards: true })).toMatchObject({ code: 2 });
    expect(failure({ locale: 'en', strength: 2, caseFirst: 'upper' })).toMatchObject({ code: 2 });
    expect(parseCollation({ locale: 'en', strength: 2, caseFirst: 'upper', caseLevel: true })).toBeDefined();
  });
});

describe('string comparison by strength', () => {
  const equal = (spec: Record<string, unknown>, a: string, b: string): boolean => collation(spec).compare(a, b) === 0;

  it('1 ignores case and diacritics, 2 case only, 3 neither', () => {
    expect([equal({ locale: 'en', strength: 1 }, 'cote', 'Côté'), equal({ locale: 'en', strength: 2 }, 'cote', 'Côté')]).toEqual([true, false]);
    expect([equal({ locale: 'en', strength: 2 }, 'côté', 'CÔTÉ'), equal({ locale: 'en', strength: 3 }, 'côté', 'CÔTÉ')]).toEqual([true, false]);
  });

  it('caseLevel makes case count at strength 1 and 2', () => {
    expect(equal({ locale: 'en', strength: 1, caseLevel: true }, 'cote', 'côte')).toBe(true);
    expect(equal({ locale: 'en', strength: 1, caseLevel: true }, 'cote', 'Cote')).toBe(false);
    expect(equal({ locale: 'en', strength: 2, caseLevel: true }, 'cote', 'Cote')).toBe(false);
  });

  it('5 (identical) tells apart strings equal at every level (an ignorable control character), not canonical equivalents', () => {
    expect(equal({ locale: 'en', strength: 3 }, 'ab', 'a\u0001b')).toBe(true);
    expect(equal({ locale: 'en', strength: 5 }, 'ab', 'a\u0001b')).toBe(false);
    expect(equal({ locale: 'en', strength: 5 }, 'e\u0301', '\u00e9')).toBe(true);
  });
});

describe('collation-aware comparisons', () => {
  const ci = collation({ locale: 'en', strength: 2 });

  it('valueComparator collates strings at any depth but keeps type order and binary field names', () => {
    const compare = valueComparator(ci);
    expect(compare({ a: ['X', 'y'] }, { a: ['x', 'Y'] })).toBe(0);
    expect(compare({ a: 'x' }, { A: 'x' })).not.toBe(0);
    expect(compare('a', 1)).toBe(1);
    expect(valueComparator(undefined)('a', 'A')).toBe(1);
  });

  it('compileFilter: equality, $in, ranges and $all under the collation; numbers untouched', () => {
    const docs = [{ s: 'Alpha', n: 1 }, { s: 'alpha', n: 2 }, { s: 'beta', n: 3 }, { s: ['GAMMA'], n: 4 }];
    const match = (filter: Record<string, unknown>) => docs.filter(compileFilter(filter, { collation: ci })).map((doc) => doc.n);
    expect(match({ s: 'ALPHA' })).toEqual([1, 2]);
    expect(match({ s: { $in: ['BETA', 'gamma'] } })).toEqual([3, 4]);
    expect(match({ s: { $gt: 'ALPHA', $lt: 'z' } })).toEqual([3, 4]);
    expect(match({ s: { $all: ['gamma'] } })).toEqual([4]);
    expect(match({ n: { $in: [1, 3] } })).toEqual([1, 3]);
    expect(docs.filter(compileFilter({ s: 'ALPHA' })).length).toBe(0);
  });

  it('sortDocuments and firstSorted order strings by the collation', () => {
    const docs = ['b', 'B', 'a', 'A'].map((v, i) => ({ v, i }));
    const en = collation({ locale: 'en' });
    expect(sortDocuments(docs, { v: 1 }, en).map((doc) => doc.v)).toEqual(['a', 'A', 'b', 'B']);
    expect(firstSorted(docs, { v: -1 }, 2, en).map((doc) => doc.v)).toEqual(['B', 'b']);
    // equal under strength 2: the stable order decides
    expect(sortDocuments(docs, { v: 1 }, ci).map((doc) => doc.i)).toEqual([2, 3, 0, 1]);
    expect(sortDocuments(docs, { v: 1 }).map((doc) => doc.v)).toEqual(['A', 'B', 'a', 'b']);
  });

  it('distinctValues keeps the first of each set of equal values, in input order', () => {
    expect(distinctValues(['b', 'A', 'a', 'B', 1, 'c'], valueComparator(ci))).toEqual(['b', 'A', 1, 'c']);
  });

  it('runPipeline: $group keys and $lookup joins under the collation', () => {
    const docs = [{ k: 'x' }, { k: 'X' }, { k: 'y' }];
    const groups = runPipeline(docs, [{ $group: { _id: '$k', n: { $sum: 1 } } }], { collection: () => [], collation: ci });
    expect(groups).toEqual([
      { _id: 'x', n: 2 },
      { _id: 'y', n: 1 },
    ]);
    const joined = runPipeline([{ _id: 1, k: 'Y' }], [{ $lookup: { from: 'other', localField: 'k', foreignField: 'k', as: 'm' } }, { $project: { n: { $size: '$m' } } }], {
      collection: () => docs,
      collation: ci,
    });
    expect(joined).toEqual([{ _id: 1, n: 1 }]);
  });

  it('the planner does not look strings up in binary indexes under a collation', () => {
    const indexed = new Map([['email', 'email_1']]);
    expect(planQuery({ email: 'A@X' }, indexed, true)).toEqual({ kind: 'scan' });
    expect(planQuery({ _id: 'a' }, indexed, true)).toEqual({ kind: 'scan' });
    expect(planQuery({ _id: 7 }, indexed, true)).toEqual({ kind: 'id', values: [7] });
  });
});
