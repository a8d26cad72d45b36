import { Decimal128, Long, ObjectId, type Document } from 'bson';
import { runPipeline, type PipelineContext } from '../../../../src/embedded-mongo/query';
import { compileExpression } from '../../../../src/embedded-mongo/query/compile-expression';
import { Random } from '../../../support/random-operations';

const none: PipelineContext = { collection: () => [] };

/** The values a field may hold: each kind the compiled operators treat apart, and missing. */
const VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -2.5,
  Number.NaN,
  Long.fromNumber(0),
  Long.fromNumber(3),
  Decimal128.fromString('0'),
  Decimal128.fromString('1E-6000'),
  '',
  'text',
  new ObjectId('6955b9000100000000000001'),
  new Date(0),
  [],
  [1, 2],
  [null],
  [[7], 8],
  [{ a: 1 }, { b: 2 }, 3],
  { a: 1 },
  { a: [1, { a: 2 }, [3]] },
  {},
];

const FIELD_PATHS = ['$x', '$y', '$z', '$z.a', '$x.a', '$missing', '$z.a.a'];
const CONSTANTS: readonly unknown[] = ['constant', '', 0, 1, true, false, null, { $literal: 'literal' }, { $literal: '$not a path' }, { $literal: 0 }];

function randomDocument(random: Random, id: number): Document {
  const doc: Document = { _id: id };
  for (const field of ['x', 'y']) {
    const value = random.pick(VALUES);
    if (value !== undefined) doc[field] = value;
  }
  const inner = random.pick(VALUES);
  if (random.chance(0.7)) doc.z = inner === undefined ? {} : { a: inner };
  return doc;
}

function randomExpression(random: Random, depth: number): unknown {
  const roll = random.next();
  if (depth === 0 || roll < 0.3) return random.chance(0.6) ? random.pick(FIELD_PATHS) : random.pick(CONSTANTS);
  const argument = (): unknown => randomExpression(random, depth - 1);
  const single = (): unknown => (random.chance(0.5) ? argument() : [argument()]);
  if (roll < 0.5) return { $isArray: single() };
  if (roll < 0.7) return { $first: single() };
  if (roll < 0.85) return { $cond: [argument(), argument(), argument()] };
  return { $cond: { if: argument(), then: argument(), else: argument() } };
}

/** A top-level expression `$project` computes (a bare number or boolean there would include or exclude the field instead). */
function randomTopLevel(random: Random): unknown {
  for (;;) {
    const expression = randomExpression(random, 3);
    if (typeof expression !== 'number' && typeof expression !== 'boolean' && expression !== null) return expression;
  }
}

/** What a pipeline gives, or the error it throws. */
function outcome(run: () => Document[]): { value: Document[] } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    return { error: `${(error as { code?: number }).code ?? ''} ${(error as Error).message}` };
  }
}

describe('compiled aggregation expressions', () => {
  // `$project` evaluates its computed fields compiled; `$addFields` is mingo's own: every answer and every error must be the same.
  it('answer exactly as mingo does on random documents and expressions', () => {
    const random = new Random(36);
    const docs = Array.from({ length: 40 }, (_, id) => randomDocument(random, id));
    let compiled = 0;
    let failed = 0;
    for (let round = 0; round < 600; round++) {
      const expression = randomTopLevel(random);
      if (compileExpression(expression) !== undefined) compiled += 1;
      const ours = outcome(() => runPipeline(docs, [{ $project: { _id: 1, v: expression } }], none));
      const mingo = outcome(() => runPipeline(docs, [{ $addFields: { v: expression } }, { $project: { _id: 1, v: 1 } }], none));
      expect({ expression, ...ours }).toEqual({ expression, ...mingo });
      if ('error' in ours) failed += 1;
    }
    expect(compiled).toBe(600);
    // Some expressions fail on some documents (`$first` of a string), so the errors are compared too.
    expect(failed).toBeGreaterThan(20);
  });

  it('leaves to mingo what it does not compile, and fails where MongoDB fails, with its error', () => {
    for (const expression of ['$$ROOT', '$a..b', { $add: [1, 2] }, { $first: [1, 2] }, { $cond: [true, 1] }, { $cond: { if: true, then: 1 } }, ['$x'], { a: '$x' }, { $literal: { a: 1 } }]) {
      expect(compileExpression(expression)).toBeUndefined();
    }
    const notAnArray = expect.objectContaining({ code: 28689, message: "$first's argument must be an array, but is int" });
    expect(() => compileExpression({ $first: '$x' })!({ x: 5 })).toThrow(notAnArray);
    expect(() => compileExpression({ $cond: [{ $first: '$x' }, 1, 2] })!({ x: 'not an array' })).toThrow(expect.objectContaining({ code: 28689 }));
    expect(compileExpression({ $cond: ['$x', 1, 2] })!({ x: '' })).toBe(1);
    expect(compileExpression({ $cond: { if: '$x', then: 1, else: { $first: '$y' } } })!({ y: [] })).toBeUndefined();
  });

  // Value::coerceToBool: a zero of every numeric type is false; NaN, "" and [] are true
  it('takes a value for true or false as MongoDB does, compiled and in mingo alike', () => {
    const values = [0, -0, Long.fromNumber(0), Decimal128.fromString('-0E-12'), Decimal128.fromString('0.000'), 1, Number.NaN, Decimal128.fromString('NaN'), Long.fromNumber(-1), Decimal128.fromString('1E-6000'), '', [], {}, null, false];
    const docs = values.map((x, _id) => ({ _id, x }));
    const truth = [false, false, false, false, false, true, true, true, true, true, true, true, true, false, false].map((yes, _id) => ({ _id, v: yes ? 'T' : 'F' }));
    expect(runPipeline(docs, [{ $project: { v: { $cond: ['$x', 'T', 'F'] } } }], none)).toEqual(truth);
    expect(runPipeline(docs, [{ $addFields: { v: { $cond: { if: '$x', then: 'T', else: 'F' } } } }, { $project: { v: 1 } }], none)).toEqual(truth);
  });

  it('refuses malformed $cond and $isArray with MongoDB\'s codes', () => {
    const codeOf = (expression: unknown): unknown => {
      try {
        runPipeline([{ _id: 1 }], [{ $project: { v: expression } }], none);
        return 'no error';
      } catch (error) {
        return (error as { code?: number }).code;
      }
    };
    const refusals: Array<[unknown, number]> = [
      [{ $cond: [true, 1] }, 16020],
      [{ $cond: { if: true, then: 1 } }, 17082],
      [{ $cond: { then: 1, else: 2 } }, 17080],
      [{ $cond: { if: true, then: 1, else: 2, also: 3 } }, 17083],
      [{ $isArray: [1, 2] }, 16020],
      [{ $isArray: [] }, 16020],
    ];
    expect(refusals.map(([expression]) => [expression, codeOf(expression)])).toEqual(refusals);
    expect(codeOf({ $isArray: [[1, 2]] })).toBe('no error');
  });
});
