import { GraphQLError, Lexer, Source, TokenKind, type Token } from 'graphql';

/**
 * How deeply a document may nest before it is parsed: selection sets, list and object values and
 * argument lists, counted through the fragments spread into them. graphql-js parses, validates and
 * executes by recursion, so a document some thousands of levels deep overflows the stack wherever
 * that happens to be first, and an overflow outside the parser is a 500. Apollo Router bounds its
 * parser's recursion at the same 500; no real operation comes near it (maxDepth bounds the fields of
 * an operation docjoin runs at 10 by default).
 */
export const MAX_DOCUMENT_NESTING = 500;

/**
 * The error refusing `text` when it nests deeper than MAX_DOCUMENT_NESTING, or undefined. A text of
 * fewer than two characters per level cannot nest that deeply (each level opens and closes), so the
 * short texts of nearly every request are not scanned. (Such a text holds fewer than 30 fragments,
 * and the pairs of a cycle of them stay far inside the stack: 100 fragments, some 3,700 characters,
 * are the fewest seen to overflow it.) A text the lexer refuses is measured up to where it does: the
 * parser reports its error when that part is shallow.
 */
export function documentNestingError(text: string): GraphQLError | undefined {
  if (text.length <= 2 * MAX_DOCUMENT_NESTING) return undefined;
  const nesting = documentNesting(text);
  if (nesting <= MAX_DOCUMENT_NESTING) return undefined;
  return new GraphQLError(
    `The document nests ${nesting.toLocaleString('en')} levels deep (selections, the fragments spread into them, and list, object and argument values); docjoin accepts at most ${MAX_DOCUMENT_NESTING}`,
    { extensions: { code: 'GRAPHQL_PARSE_FAILED', nesting, maxNesting: MAX_DOCUMENT_NESTING, http: { status: 400 } } },
  );
}

/**
 * The error refusing a request's variables when a value nests deeper than MAX_DOCUMENT_NESTING (lists
 * and input objects of a recursive input type, which graphql-js coerces by recursion), or undefined.
 * Measured without recursion; the top-level variables object is the first level.
 */
export function variablesNestingError(variables: unknown): GraphQLError | undefined {
  if (valueNestsDeeperThan(variables, MAX_DOCUMENT_NESTING)) {
    return new GraphQLError(`The variables nest more than ${MAX_DOCUMENT_NESTING} levels deep (lists and input objects); docjoin accepts at most ${MAX_DOCUMENT_NESTING}`, {
      extensions: { code: 'BAD_USER_INPUT', maxNesting: MAX_DOCUMENT_NESTING, http: { status: 400 } },
    });
  }
  return undefined;
}

function valueNestsDeeperThan(value: unknown, levels: number): boolean {
  const pending: Array<{ readonly value: object; readonly depth: number }> = [];
  if (value !== null && typeof value === 'object') pending.push({ value, depth: 1 });
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > levels) return true;
    for (const child of Array.isArray(next.value) ? next.value : Object.values(next.value)) {
      if (child !== null && typeof child === 'object') pending.push({ value: child as object, depth: next.depth + 1 });
    }
  }
  return false;
}

/** One definition of the document: how deep it nests by itself, and at which depths it spreads which fragments. */
interface DefinitionNesting {
  deepest: number;
  readonly spreads: Array<{ readonly fragment: string; readonly depth: number }>;
}

/**
 * The deepest nesting of `text`'s definitions, each with its spreads replaced by the fragments they
 * name, found from its tokens alone: no recursion, whatever the depth, up to where the lexer refuses
 * the text if it does. Validation refuses a cycle of spreads, but its rules follow paths through the cycle's
 * fragments first, and the longest of those is too costly to find; with a cycle, the measure is at
 * least what every fragment nests, added up (no path that visits each fragment once goes deeper), and
 * the pairs of fragments, which the overlap check can chain one after the other.
 */
export function documentNesting(text: string): number {
  const definitions = definitionsOf(text);
  const byFragment = new Map<string, DefinitionNesting>();
  // A name defined twice (validation refuses it, after its rules have followed either one) stands for both.
  for (const [name, definition] of definitions) {
    if (name === undefined) continue;
    const other = byFragment.get(name);
    byFragment.set(name, other ? { deepest: Math.max(other.deepest, definition.deepest), spreads: [...other.spreads, ...definition.spreads] } : definition);
  }
  const resolved = new Map<string, number>();
  const walk = { cyclic: false };
  let deepest = 0;
  for (const [, definition] of definitions) deepest = Math.max(deepest, nestingThroughSpreads(definition, byFragment, resolved, walk));
  if (!walk.cyclic) return deepest;
  let everyFragment = 0;
  for (const fragment of byFragment.values()) everyFragment += fragment.deepest;
  // Comparing fields for overlaps, validation also walks from one pair of fragments to the next.
  const pairs = (byFragment.size * (byFragment.size - 1)) / 2;
  return Math.max(deepest, everyFragment + pairs + Math.max(0, ...definitions.filter(([name]) => name === undefined).map(([, operation]) => operation.deepest)));
}

const DEFINITION_KEYWORDS = new Set(['query', 'mutation', 'subscription', 'fragment']);
// Read once: each `TokenKind.X` is a getter on graphql's exports, and the scan compares every token.
const { EOF, NAME, SPREAD, BRACE_L, BRACE_R, BRACKET_L, BRACKET_R, PAREN_L, PAREN_R } = TokenKind;

/** Each definition (a fragment by its name, an operation by undefined) with its own nesting and spreads, in order. */
function definitionsOf(text: string): Array<[string | undefined, DefinitionNesting]> {
  const lexer = new Lexer(new Source(text));
  const definitions: Array<[string | undefined, DefinitionNesting]> = [];
  const begin = (name: string | undefined): DefinitionNesting => {
    const definition: DefinitionNesting = { deepest: 0, spreads: [] };
    definitions.push([name, definition]);
    return definition;
  };
  let current: DefinitionNesting | undefined;
  // Between a definition's keyword and its selection set: the names there are its header's (`fragment query on T`), and the `{` to come is its body.
  let awaitingBody = false;
  let depth = 0;
  try {
    for (let token: Token = lexer.advance(); token.kind !== EOF; token = lexer.advance()) {
      if (depth === 0) {
        if (token.kind === NAME && !awaitingBody && DEFINITION_KEYWORDS.has(token.value)) {
          const fragmentName = token.value === 'fragment' ? lexer.lookahead() : undefined;
          current = begin(fragmentName?.kind === NAME ? fragmentName.value : undefined);
          awaitingBody = true;
        } else if (token.kind === BRACE_L) {
          if (!awaitingBody || current === undefined) current = begin(undefined);
          awaitingBody = false;
        } else current ??= begin(undefined);
      }
      switch (token.kind) {
        case BRACE_L:
        case BRACKET_L:
        case PAREN_L:
          depth += 1;
          current!.deepest = Math.max(current!.deepest, depth);
          break;
        case BRACE_R:
        case BRACKET_R:
        case PAREN_R:
          depth = Math.max(0, depth - 1);
          break;
        case SPREAD: {
          const next = lexer.lookahead();
          if (next.kind === NAME && next.value !== 'on') current!.spreads.push({ fragment: next.value, depth });
          break;
        }
        default:
          break;
      }
    }
  } catch {
    // The lexer refuses the rest: what came before it is what the parser would recurse through first.
    return definitions;
  }
  return definitions;
}

/**
 * `definition`'s nesting with every spread expanded, by a depth-first walk on an explicit stack;
 * fragments already worked out are in `resolved`. A spread of a fragment on the walk's own path (a
 * cycle) adds nothing here, and marks the walk `cyclic` (documentNesting bounds such documents).
 */
function nestingThroughSpreads(definition: DefinitionNesting, byFragment: ReadonlyMap<string, DefinitionNesting>, resolved: Map<string, number>, walk: { cyclic: boolean }): number {
  interface Frame {
    readonly name: string | undefined;
    readonly definition: DefinitionNesting;
    next: number;
    deepest: number;
  }
  const onPath = new Set<string>();
  const stack: Frame[] = [{ name: undefined, definition, next: 0, deepest: definition.deepest }];
  for (;;) {
    const frame = stack[stack.length - 1]!;
    const spread = frame.definition.spreads[frame.next];
    frame.next += 1;
    if (spread === undefined) {
      stack.pop();
      if (frame.name !== undefined) {
        resolved.set(frame.name, frame.deepest);
        onPath.delete(frame.name);
      }
      const parent = stack[stack.length - 1];
      if (parent === undefined) return frame.deepest;
      parent.deepest = Math.max(parent.deepest, parent.definition.spreads[parent.next - 1]!.depth + frame.deepest);
      continue;
    }
    const known = resolved.get(spread.fragment);
    const target = byFragment.get(spread.fragment);
    if (known !== undefined) frame.deepest = Math.max(frame.deepest, spread.depth + known);
    else if (onPath.has(spread.fragment)) walk.cyclic = true;
    else if (target !== undefined) {
      onPath.add(spread.fragment);
      stack.push({ name: spread.fragment, definition: target, next: 0, deepest: target.deepest });
    }
  }
}
