import { toMongoFilter } from '../../../../../src/gateway/operation/planning/list-filter';

/** The reads' filters of a hand-written resolver (context.documents): typed values and docjoin's own comparisons, never an operator. */
describe('toMongoFilter', () => {
  it('turns each documented form into its MongoDB condition, every filter of a list holding', () => {
    const from = new Date('2026-01-01');
    expect(toMongoFilter({ status: 'OPEN', n: { ne: 2 }, a: { lt: 1 }, b: { lte: 1 }, c: { gt: 1 }, d: { gte: 1 }, e: { in: ['x', null] }, f: { prefix: 'a.b' } })).toEqual({
      status: 'OPEN',
      n: { $ne: 2 },
      a: { $lt: 1 },
      b: { $lte: 1 },
      c: { $gt: 1 },
      d: { $gte: 1 },
      e: { $in: ['x', null] },
      f: { $regex: '^a\\.b' },
    });
    expect(toMongoFilter([{ birthDate: { gte: from } }, { birthDate: { lt: from } }])).toEqual({ $and: [{ birthDate: { $gte: from } }, { birthDate: { $lt: from } }] });
  });

  it("refuses a MongoDB operator, naming the forms it takes and not the value (it may be a user's)", () => {
    expect(() => toMongoFilter({ birthDate: { $lt: 'secret' } as never })).toThrow(
      'root filter on birthDate has an unsupported condition { "$lt" }: give a value (equal to it), or one of { ne | lt | lte | gt | gte: value }, { in: [values] } or { prefix: "text" }, not MongoDB operators',
    );
  });
});
