import { parse } from 'graphql';
import { documentNesting, documentNestingError, MAX_DOCUMENT_NESTING, variablesNestingError } from '../../../../../src/gateway/operation/limits/document-nesting';

const chain = (fragments: number): string => {
  let text = '{ posts(first: 1) { ...F0 } }';
  for (let i = 0; i < fragments; i++) text += ` fragment F${i} on Post { title ${i + 1 < fragments ? `...F${i + 1}` : ''} }`;
  return text;
};

describe('documentNesting', () => {
  it.each([
    ['a shorthand query', '{ a { b { c } } }', 3],
    ['arguments and their list and object values', '{ a(x: [[1]], y: { z: { w: 1 } }) { b } }', 4],
    ['inline fragments, with and without a type condition', '{ a { ... on T { ... @include(if: true) { b } } } }', 4],
    ['an operation with variables and directives', 'query Q($v: [Int] = [1]) @d(x: 1) { a { b } }', 2],
    ['a fragment spread at depth 2 of a fragment nesting 2', '{ a { ...F } } fragment F on T { b { c } }', 4],
    ['the deepest of several operations', 'query A { a } query B { a { b { c } } } { x }', 3],
    ['a fragment spread twice at different depths', '{ a { ...F b { c { ...F } } } } fragment F on T { d { e } }', 6],
    ['a fragment defined before the operation spreading it', 'fragment F on T { b { c } } { a { ...F } }', 4],
    ['braces inside strings, block strings and comments, which are not nesting', '{ a(x: "{{{[[[", y: """ {{{ """) # {{{{\n { b } }', 2],
    ['a spread of an unknown fragment', '{ a { ...Missing } }', 2],
    ['fragments and operations named by keywords', 'query query { a { ...query } } fragment query on T { ...fragment } fragment fragment on T { b { c } }', 5],
  ])('counts %s', (_what, text, expected) => {
    parse(text);
    expect(documentNesting(text)).toBe(expected);
  });

  it('bounds a document with a cycle of spreads by what all its fragments nest, added up, and their pairs', () => {
    expect(documentNesting('{ a { ...A } } fragment A on T { b { ...B } } fragment B on T { c { ...A } }')).toBe(2 + 2 + 2 + 1);
    // Chained both ways, each back spread 100 deep: walked forwards first, the cut spreads hid the path
    // backwards that validation follows (about 100 per fragment), and the document measured 211.
    const levels = (n: number, inner: string) => `${'a { '.repeat(n)}${inner}${' }'.repeat(n)}`;
    let text = '{ ...P1 }';
    for (let i = 1; i <= 10; i++) text += ` fragment P${i} on Query { ${i < 10 ? `...P${i + 1} ` : ''}${levels(100, i > 1 ? `...P${i - 1}` : 'b')} }`;
    parse(text);
    expect(documentNesting(text)).toBe(10 * 101 + 1 + 45);
    // Each fragment spreading the next two, round: one level each, but validation's overlap check
    // chained pair after pair of them, about 5,000 calls deep for 100 fragments (a 500).
    let pairs = '{ ...f0 ...f1 }';
    for (let i = 0; i < 100; i++) pairs += ` fragment f${i} on Query { a ...f${(i + 1) % 100} ...f${(i + 2) % 100} }`;
    expect(documentNesting(pairs)).toBe(100 + 4_950 + 1);
  });

  it('follows every definition of a fragment defined twice', () => {
    let text = '{ a { ...F0 } }';
    for (let i = 0; i < 1_000; i++) text += ` fragment F${i} on T { b } fragment F${i} on T { b ...F${i + 1} }`;
    expect(documentNesting(text)).toBe(1_002);
  });

  it('walks a chain of 20,000 fragments without recursion', () => {
    expect(documentNesting(chain(20_000))).toBe(20_002);
  });

  it('measures a text the lexer refuses up to where it does: shallow, the parser reports the error; deep, the nesting is refused first', () => {
    expect(documentNesting('{ a { b } } \u0007')).toBe(2);
    // The parser would recurse 3,000 levels before reaching the unterminated string.
    const deep = '{ a '.repeat(3000) + '"unterminated';
    expect(documentNesting(deep)).toBe(3000);
    expect(documentNestingError(deep)?.extensions).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', nesting: 3000 });
  });
});

describe('documentNestingError', () => {
  it(`refuses a document nested deeper than ${MAX_DOCUMENT_NESTING} levels, naming the depth and the limit`, () => {
    const error = documentNestingError(chain(600));
    expect(error?.message).toBe(
      `The document nests 602 levels deep (selections, the fragments spread into them, and list, object and argument values); docjoin accepts at most ${MAX_DOCUMENT_NESTING}`,
    );
    expect(error?.extensions).toEqual({ code: 'GRAPHQL_PARSE_FAILED', nesting: 602, maxNesting: MAX_DOCUMENT_NESTING, http: { status: 400 } });
  });

  it('accepts a document at the limit, and skips texts too short to reach it', () => {
    const atLimit = '{ a ' + '{ ... '.repeat(MAX_DOCUMENT_NESTING - 2) + '{ b }' + ' }'.repeat(MAX_DOCUMENT_NESTING - 2) + ' }';
    parse(atLimit);
    expect(documentNesting(atLimit)).toBe(MAX_DOCUMENT_NESTING);
    expect(documentNestingError(atLimit)).toBeUndefined();
    // 2 characters per level at least: a shorter text is not scanned, and cannot be over.
    const short = '['.repeat(MAX_DOCUMENT_NESTING) + ']'.repeat(MAX_DOCUMENT_NESTING);
    expect(documentNesting(`{ a(x: ${short}) }`)).toBe(MAX_DOCUMENT_NESTING + 2);
    expect(documentNestingError(short)).toBeUndefined();
  });
});

describe('variablesNestingError', () => {
  const nested = (levels: number, open: (inner: unknown) => unknown): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = open(value);
    return value;
  };

  it('refuses variables nesting objects or lists past the limit, the variables object being the first level, with 400 BAD_USER_INPUT', () => {
    for (const open of [(inner: unknown) => ({ child: inner }), (inner: unknown) => [inner]]) {
      expect(variablesNestingError({ d: nested(MAX_DOCUMENT_NESTING - 1, open) })).toBeUndefined();
      const error = variablesNestingError({ d: nested(MAX_DOCUMENT_NESTING, open) });
      expect(error?.message).toBe('The variables nest more than 500 levels deep (lists and input objects); docjoin accepts at most 500');
      expect(error?.extensions).toEqual({ code: 'BAD_USER_INPUT', maxNesting: 500, http: { status: 400 } });
    }
    expect(variablesNestingError({ d: nested(60_000, (inner) => ({ child: inner })) })?.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('measures the deepest branch, beside wide shallow ones', () => {
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, [{ a: 1 }]]));
    expect(variablesNestingError({ ...wide, deep: nested(MAX_DOCUMENT_NESTING - 1, (inner) => [inner]) })).toBeUndefined();
    expect(variablesNestingError({ ...wide, deep: nested(MAX_DOCUMENT_NESTING, (inner) => [inner]) })).toBeDefined();
  });

  it('accepts no variables and scalars', () => {
    for (const variables of [undefined, null, 'text', 7, {}]) expect(variablesNestingError(variables)).toBeUndefined();
  });
});
