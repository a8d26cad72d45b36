import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { isNumeric, isPlainDocument } from './bson-kind';
import { plainNumber } from '../../bson/bson-number';
import { cloneDocument, unsharedValue } from './clone-document';
import { compileFilter, compileValueMatcher } from './compile-filter';
import { evaluateExpression } from './mingo-context';
import { withMongoFieldPaths } from './field-path';

type Special =
  | { readonly kind: 'slice'; readonly skip: number | undefined; readonly limit: number }
  | { readonly kind: 'elemMatch'; readonly test: (element: unknown) => boolean }
  | { readonly kind: 'positional' }
  | { readonly kind: 'computed'; readonly expression: unknown };

interface ParsedProjection {
  readonly mode: 'inclusion' | 'exclusion';
  readonly includeId: boolean;
  /** Paths kept (inclusion) or dropped (exclusion), without `_id`. */
  readonly paths: readonly string[];
  readonly specials: ReadonlyArray<{ readonly path: string; readonly special: Special }>;
}

/**
 * A find projection (MongoDB docs: "Project Fields to Return from Query", "$slice (projection)",
 * "$elemMatch (projection)", "$ (projection)"). Inclusion or exclusion, `_id` kept unless excluded,
 * dotted paths through arrays of documents, `$slice`, `$elemMatch`, the positional `$` (which needs
 * the query filter) and computed fields. Returns a new document.
 */
export function applyProjection(doc: Document, projection?: Document | null, filter?: Document): Document {
  if (!projection || Object.keys(projection).length === 0) return cloneDocument(doc);
  let project = compiledProjections.get(projection);
  if (!project) compiledProjections.set(projection, (project = compileProjection(projection)));
  return project(doc, filter);
}

/** A cursor projects every document with the same projection object: compile it once. */
const compiledProjections = new WeakMap<Document, (doc: Document, filter: Document | undefined) => Document>();

/**
 * A find projection as a function. Plain inclusions and exclusions share the values they keep with
 * the stored document (which is frozen), as `compileFieldProjection` does; specials write into the
 * result, so it is a deep copy before they run.
 */
function compileProjection(projection: Document): (doc: Document, filter: Document | undefined) => Document {
  const parsed = parseProjection(projection);
  const plain = fieldProjection(parsed);
  if (parsed.specials.length === 0) return plain;
  return (doc, filter) => {
    const result = cloneDocument(plain(doc));
    for (const { path, special } of parsed.specials) applySpecial(result, doc, path, special, filter);
    return result;
  };
}

/** An aggregation expression as a function of the document, in the variables of the pipeline it runs in. */
export type ExpressionCompiler = (expression: unknown) => (doc: Document) => unknown;

/**
 * An aggregation `$project` made only of field inclusions or exclusions (`1`, `true`, `0`, `false`,
 * nested or dotted) and, given `compileComputed`, of top-level fields computed by an expression next to the
 * inclusions; compiled once; undefined for anything else (`$slice`, a computed dotted path or `_id`, an
 * empty spec, one a find refuses), which the caller leaves to mingo; colliding paths and an empty
 * sub-projection are refused here, as MongoDB refuses them in both. The projected document is new along the
 * kept paths and shares the values it keeps, so it must be treated as read-only. `_id` comes first, as
 * MongoDB returns it, then the included fields in the input's order, then the computed ones in the
 * spec's; a computed field whose expression is missing is left out.
 */
export function compileFieldProjection(spec: Document, compileComputed?: ExpressionCompiler): ((doc: Document) => Document) | undefined {
  if (Object.keys(spec).length === 0) return undefined;
  let parsed: ParsedProjection;
  try {
    parsed = parseProjection(spec);
  } catch (error) {
    // A find's other refusals ($slice's arguments…) may be valid aggregation expressions: mingo decides.
    if (error instanceof CommandError && SHAPE_ERRORS.has(error.code)) throw error;
    return undefined;
  }
  if (parsed.specials.length === 0) return fieldProjection(parsed);
  const computed = compileComputed && topLevelComputedFields(parsed)?.map(({ field, expression }) => ({ field, evaluate: compileComputed(expression) }));
  if (!computed) return undefined;
  const plain = fieldProjection(parsed);
  return (doc) => {
    const out = plain(doc);
    for (const { field, evaluate } of computed) {
      const value = evaluate(doc);
      // An expression may give the same value twice (`{ a: '$x', b: '$x' }`): each field gets its own.
      if (value !== undefined) out[field] = unsharedValue(value);
    }
    return out;
  };
}

/**
 * The computed fields of an inclusion projection when each is a top-level field other than `_id` (no
 * included path runs through it: claimPath refused that); undefined for any other special (which
 * MongoDB may order or read differently).
 */
function topLevelComputedFields(parsed: ParsedProjection): Array<{ readonly field: string; readonly expression: unknown }> | undefined {
  const computed: Array<{ field: string; expression: unknown }> = [];
  for (const { path, special } of parsed.specials) {
    if (special.kind !== 'computed' || path.includes('.') || path === '_id') return undefined;
    computed.push({ field: path, expression: special.expression });
  }
  return computed;
}

/** The inclusions or exclusions of a parsed projection (its specials aside), `_id` first when kept. */
function fieldProjection({ mode, includeId, paths }: ParsedProjection): (doc: Document) => Document {
  if (mode === 'exclusion') {
    const excluded = buildTree(includeId ? paths : [...paths, '_id']);
    return (doc) => exclude(doc, excluded);
  }
  const tree = buildTree(paths);
  return (doc) => include(doc, tree, true, includeId ? doc._id : undefined);
}

/**
 * Whether a plain-field `$project` (see compileFieldProjection) passes every one of `paths` through
 * with its values unchanged: each is included itself or through an ancestor, or, for an exclusion,
 * neither it nor any ancestor or descendant is excluded. False for any other projection.
 */
export function projectionKeepsPaths(spec: Document, paths: readonly string[]): boolean {
  if (compileFieldProjection(spec) === undefined) return false;
  const parsed = parseProjection(spec);
  const within = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}.`);
  return paths.every((path) => {
    if (within(path, '_id')) return parsed.includeId;
    if (parsed.mode === 'inclusion') return parsed.paths.some((kept) => within(path, kept));
    return !parsed.paths.some((dropped) => within(path, dropped) || within(dropped, path));
  });
}

function parseProjection(projection: Document): ParsedProjection {
  let includeId = true;
  const included: string[] = [];
  const excluded: string[] = [];
  const specials: { path: string; special: Special }[] = [];
  let inclusionLike = false;
  /** `{ _id: 1 }` alone is an inclusion projection: only `_id` comes back. */
  let idOnly = false;
  const claim = pathClaims();
  const visit = (spec: Document, prefix: string): void => {
    for (const key of Object.keys(spec)) {
      const value: unknown = spec[key];
      const path = prefix ? `${prefix}.${key}` : key;
      const nested = isPlainDocument(value) && !Object.keys(value)[0]?.startsWith('$');
      if (nested && Object.keys(value).length === 0) {
        throw new CommandError(51270, 'Location51270', `An empty sub-projection is not a valid value. Found empty object at path ${path}`);
      }
      if (!nested) claim(path.endsWith('.$') ? path.slice(0, -2) : path);
      if (path.endsWith('.$')) {
        const field = path.slice(0, -2);
        specials.push({ path: field, special: { kind: 'positional' } });
        included.push(field);
        inclusionLike = true;
        continue;
      }
      if (isPlainDocument(value)) {
        const first = Object.keys(value)[0];
        if (first === '$slice') {
          specials.push({ path, special: parseSlice(value.$slice) });
          continue;
        }
        if (first === '$elemMatch') {
          const condition = value.$elemMatch;
          if (!isPlainDocument(condition)) throw badValue('elemMatch: Invalid argument, object required.');
          specials.push({ path, special: { kind: 'elemMatch', test: elementTest(condition) } });
          included.push(path);
          inclusionLike = true;
          continue;
        }
        if (first !== undefined && first.startsWith('$')) {
          specials.push({ path, special: { kind: 'computed', expression: withMongoFieldPaths(value) } });
          inclusionLike = true;
          continue;
        }
        visit(value, path);
        continue;
      }
      if (typeof value === 'boolean' || isNumeric(value)) {
        const on = typeof value === 'boolean' ? value : (plainNumber(value) ?? 1) !== 0;
        if (path === '_id') {
          includeId = on;
          idOnly = on;
        }
        else if (on) included.push(path);
        else excluded.push(path);
        continue;
      }
      specials.push({ path, special: { kind: 'computed', expression: withMongoFieldPaths(value) } });
      inclusionLike = true;
    }
  };
  visit(projection, '');
  if (included.length > 0 && excluded.length > 0) {
    throw new CommandError(31254, 'Location31254', `Cannot do exclusion on field ${excluded[0]} in inclusion projection`);
  }
  if (excluded.length > 0 && inclusionLike) {
    throw new CommandError(31253, 'Location31253', `Cannot do inclusion on field ${included[0] ?? specials[0]?.path} in exclusion projection`);
  }
  // `{ _id: 0 }` or `{ a: { $slice: 2 } }` alone keep every other field
  const mode = included.length > 0 || inclusionLike || (idOnly && excluded.length === 0 && specials.length === 0) ? 'inclusion' : 'exclusion';
  // in an inclusion projection a $slice-d field is returned too (MongoDB 4.4+)
  const sliced = specials.filter((s) => s.special.kind === 'slice').map((s) => s.path);
  if (mode === 'inclusion') included.push(...sliced);
  return { mode, includeId, paths: mode === 'inclusion' ? included : excluded, specials };
}

/**
 * MongoDB's projection parser (projection_ast), for `$project` and `$unset`: each path claims its place
 * in turn, and a path that is an earlier one, or lies above or under one, collides: 31249 when an
 * earlier path is its prefix, 31250 when it is an earlier path or its prefix.
 */
export function pathClaims(): (path: string) => void {
  const claimed = pathTree();
  return (path) => claimPath(claimed, path);
}

function claimPath(claimed: PathTree, path: string): void {
  const parts = path.split('.');
  let node = claimed;
  for (const [index, part] of parts.entries()) {
    const next = node[part];
    if (index === parts.length - 1) {
      if (next !== undefined) throw new CommandError(31250, 'Location31250', `Path collision at ${path}`);
      node[part] = true;
      return;
    }
    if (next === true) throw new CommandError(31249, 'Location31249', `Path collision at ${path} remaining portion ${parts.slice(index + 1).join('.')}`);
    node = next ?? (node[part] = pathTree());
  }
}

/** The refusals of a projection's shape, which hold for an aggregation `$project` as for a find's. */
const SHAPE_ERRORS: ReadonlySet<number> = new Set([31249, 31250, 51270]);

function parseSlice(argument: unknown): Special {
  if (Array.isArray(argument)) {
    const skip = plainNumber(argument[0]);
    const limit = plainNumber(argument[1]);
    if (argument.length !== 2 || skip === undefined || limit === undefined) throw badValue('$slice array argument must be [skip, limit]');
    if (limit <= 0) throw badValue(`$slice limit must be positive, got ${limit}`);
    return { kind: 'slice', skip, limit };
  }
  const limit = plainNumber(argument);
  if (limit === undefined) throw badValue('$slice only supports numbers and [skip, limit] arrays');
  return { kind: 'slice', skip: undefined, limit };
}

function elementTest(condition: Document): (element: unknown) => boolean {
  const keys = Object.keys(condition);
  const logical = new Set(['$and', '$or', '$nor', '$expr']);
  if (keys.length > 0 && keys.every((key) => key.startsWith('$') && !logical.has(key))) return compileValueMatcher(condition);
  const predicate = compileFilter(condition);
  return (element) => isPlainDocument(element) && predicate(element);
}

interface PathTree {
  [field: string]: PathTree | true;
}

/** A node without a prototype: a field named `constructor` or `toString` is found only where a path put it. */
function pathTree(): PathTree {
  return Object.create(null) as PathTree;
}

function buildTree(paths: readonly string[]): PathTree {
  const root = pathTree();
  for (const path of paths) {
    const parts = path.split('.');
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = true;
        return;
      }
      const child = node[part];
      if (child === true) return;
      const next: PathTree = child ?? pathTree();
      node[part] = next;
      node = next;
    });
  }
  return root;
}

/**
 * Keeps only the tree's paths; inside arrays each document element is projected and scalars dropped.
 * At the top, `_id` comes first when given.
 */
function include(doc: Document, tree: PathTree, top: boolean, id?: unknown): Document {
  const out: Document = {};
  if (id !== undefined) out._id = id;
  for (const key of Object.keys(doc)) {
    if (top && key === '_id') continue;
    const node = tree[key];
    if (node === undefined) continue;
    const value: unknown = doc[key];
    if (node === true) out[key] = value;
    else if (isPlainDocument(value)) out[key] = include(value, node, false);
    else if (Array.isArray(value)) out[key] = includeInArray(value, node);
  }
  return out;
}

function includeInArray(array: unknown[], tree: PathTree): unknown[] {
  const out: unknown[] = [];
  for (const element of array) {
    if (isPlainDocument(element)) out.push(include(element, tree, false));
    else if (Array.isArray(element)) out.push(includeInArray(element, tree));
  }
  return out;
}

function exclude(doc: Document, tree: PathTree): Document {
  const out: Document = {};
  for (const key of Object.keys(doc)) {
    const node = tree[key];
    const value: unknown = doc[key];
    if (node === true) continue;
    if (node === undefined) out[key] = value;
    else if (isPlainDocument(value)) out[key] = exclude(value, node);
    else if (Array.isArray(value)) out[key] = value.map((element) => (isPlainDocument(element) ? exclude(element, node) : element));
    else out[key] = value;
  }
  return out;
}

function applySpecial(result: Document, original: Document, path: string, special: Special, filter: Document | undefined): void {
  const parts = path.split('.');
  const field = parts[parts.length - 1] as string;
  const parentOf = (create: boolean): Document | undefined => {
    let node: Document = result;
    for (const part of parts.slice(0, -1)) {
      const next: unknown = node[part];
      if (!isPlainDocument(next)) {
        if (!create) return undefined;
        node[part] = {};
        node = node[part] as Document;
      } else node = next;
    }
    return node;
  };
  switch (special.kind) {
    case 'slice': {
      // Through an array of documents, each element's array is sliced (`a.b` in `a: [{ b: [...] }, ...]`).
      for (const parent of parentsThroughArrays(result, parts.slice(0, -1))) {
        const value: unknown = parent[field];
        if (Array.isArray(value)) parent[field] = sliceArray(value, special.skip, special.limit);
      }
      return;
    }
    case 'elemMatch': {
      const parent = parentOf(false);
      const value: unknown = parent?.[field];
      if (!parent) return;
      const match = Array.isArray(value) ? value.find(special.test) : undefined;
      if (match === undefined) delete parent[field];
      else parent[field] = [match];
      return;
    }
    case 'positional': {
      const parent = parentOf(false);
      const value: unknown = parent?.[field];
      if (!parent || !Array.isArray(value)) return;
      parent[field] = [value[positionalMatch(value, path, filter)]];
      return;
    }
    case 'computed': {
      const parent = parentOf(true) as Document;
      parent[field] = cloneDocument(evaluateExpression(original, special.expression));
      return;
    }
    default: {
      const unreachable: never = special;
      return unreachable;
    }
  }
}

/** The documents at `parts` under `node`, walking into each document element of the arrays on the way. */
function parentsThroughArrays(node: unknown, parts: readonly string[]): Document[] {
  if (Array.isArray(node)) return node.flatMap((element) => (isPlainDocument(element) ? parentsThroughArrays(element, parts) : []));
  if (!isPlainDocument(node)) return [];
  const [part, ...rest] = parts;
  return part === undefined ? [node] : parentsThroughArrays(node[part], rest);
}

function sliceArray(array: unknown[], skip: number | undefined, limit: number): unknown[] {
  if (skip === undefined) return limit >= 0 ? array.slice(0, limit) : array.slice(Math.max(0, array.length + limit));
  const start = skip >= 0 ? Math.min(skip, array.length) : Math.max(0, array.length + skip);
  return array.slice(start, start + limit);
}

function positionalMatch(array: unknown[], path: string, filter: Document | undefined): number {
  const conditions: Document[] = [];
  const collect = (f: Document): void => {
    for (const key of Object.keys(f)) {
      if (key === '$and' && Array.isArray(f.$and)) for (const branch of f.$and as Document[]) collect(branch);
      else if (key === path || key.startsWith(`${path}.`)) conditions.push({ [key]: f[key] });
    }
  };
  if (filter) collect(filter);
  if (conditions.length > 0) {
    const predicate = compileFilter({ $and: conditions });
    const parts = path.split('.');
    for (let i = 0; i < array.length; i++) {
      let probe: unknown = [array[i]];
      for (let p = parts.length - 1; p >= 0; p--) probe = { [parts[p] as string]: probe };
      if (predicate(probe as Document)) return i;
    }
  }
  throw new CommandError(51246, 'Location51246', "Executor error during find command :: caused by :: positional operator '.$' couldn't find a matching element in the array");
}

function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, 'BadValue', message);
}
