import { Decimal128, Long, Timestamp, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { isNumeric, isPlainDocument } from './bson-kind';
import { regexParts } from '../../bson/bson-text';
import { arithmetic, longToBigInt, numericWidth, plainNumber } from '../../bson/bson-number';
import { bsonTypeNumber } from './bson-type-number';
import { valueComparator, type Collation } from './collation';
import { compileFilter, compileValueMatcher } from './compile-filter';
import { cloneDocument } from './clone-document';
import { formatShellValue } from '../protocol/shell-value';
import { isArrayIndex } from './document-path';
import { runPipeline } from './run-pipeline';
import { valueKey, valuesEqual } from './value-key';

export interface UpdateOptions {
  /** `arrayFilters` of the update command, for `$[identifier]` paths. */
  readonly arrayFilters?: readonly Document[];
  /** The query filter that selected the document, for the positional `$` operator. */
  readonly filter?: Document;
  /** True when the update seeds an upserted document: `$setOnInsert` applies. */
  readonly isInsert?: boolean;
  /** The operation's collation: array filters, the positional `$`, `$pull`, `$pullAll`, `$addToSet`, `$min`/`$max` and `$push`'s `$sort` compare strings under it. */
  readonly collation?: Collation;
  /** The operation's `let` variables, for pipeline updates. */
  readonly variables?: Readonly<Record<string, unknown>>;
}

const OPERATORS = [
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$setOnInsert',
  '$currentDate',
  '$push',
  '$addToSet',
  '$pop',
  '$pull',
  '$pullAll',
  '$bit',
] as const;
type UpdateOperator = (typeof OPERATORS)[number];

const PIPELINE_STAGES = new Set(['$set', '$addFields', '$project', '$unset', '$replaceRoot', '$replaceWith']);

/**
 * Applies an update to a document and returns the new document; the input is never mutated.
 * Accepts operator updates, replacement documents and pipeline updates (MongoDB docs: "Update
 * Operators", "Updates with Aggregation Pipeline"). Errors carry MongoDB's codes.
 */
export function applyUpdate(doc: Document, update: Document | Document[], options: UpdateOptions = {}): Document {
  if (Array.isArray(update)) return applyPipelineUpdate(doc, update, options);
  if (!isPlainDocument(update)) throw failedToParse('Update argument must be either an object or an array');
  const keys = Object.keys(update);
  if (keys.length === 0 || !(keys[0] as string).startsWith('$')) return applyReplacement(doc, update);
  return applyOperators(doc, update, options);
}

function applyReplacement(doc: Document, replacement: Document): Document {
  for (const key of Object.keys(replacement)) {
    if (key.startsWith('$')) {
      throw new CommandError(52, 'DollarPrefixedFieldName', `The dollar ($) prefixed field '${key}' in '${key}' is not valid for storage.`);
    }
  }
  if ('_id' in replacement && doc._id !== undefined && !valuesEqual(replacement._id, doc._id)) throw immutableId();
  const result: Document = {};
  if (doc._id !== undefined) result._id = doc._id;
  else if (replacement._id !== undefined) result._id = replacement._id;
  for (const key of Object.keys(replacement)) if (key !== '_id') result[key] = replacement[key];
  return cloneDocument(result);
}

function applyPipelineUpdate(doc: Document, stages: Document[], options: UpdateOptions): Document {
  for (const stage of stages) {
    const name = isPlainDocument(stage) ? Object.keys(stage)[0] : undefined;
    if (name === undefined || !PIPELINE_STAGES.has(name)) {
      throw new CommandError(ErrorCodes.BadValue, 'BadValue', `${name ?? 'stage'} is not allowed to be used within an update`);
    }
  }
  const [result] = runPipeline([doc], stages, { collection: () => [], collation: options.collation, variables: options.variables });
  if (!result) throw new CommandError(ErrorCodes.BadValue, 'BadValue', 'pipeline update produced no document');
  if (doc._id !== undefined) {
    if ('_id' in result && !valuesEqual(result._id, doc._id)) throw immutableId();
    const { _id: _ignored, ...rest } = result;
    return { _id: doc._id, ...rest };
  }
  return result;
}

interface PathUpdate {
  readonly operator: UpdateOperator;
  readonly path: string;
  readonly parts: readonly string[];
  readonly argument: unknown;
}

function applyOperators(doc: Document, update: Document, options: UpdateOptions): Document {
  const updates: PathUpdate[] = [];
  for (const operator of Object.keys(update)) {
    if (!(OPERATORS as readonly string[]).includes(operator)) {
      throw failedToParse(`Unknown modifier: ${operator}. Expected a valid update modifier or pipeline-style update specified as an array`);
    }
    const fields: unknown = update[operator];
    if (!isPlainDocument(fields)) {
      throw failedToParse(`Modifiers operate on fields but we found type ${typeName(fields)} instead. For example: {$mod: {<field>: ...}} not {${operator}: ${String(fields)}}`);
    }
    for (const path of Object.keys(fields)) {
      if (path === '' || path.split('.').some((part) => part === '')) throw new CommandError(56, 'EmptyFieldName', `An update path '${path}' contains an empty field name, which is not allowed.`);
      updates.push({ operator: operator as UpdateOperator, path, parts: path.split('.'), argument: fields[path] });
    }
  }
  checkConflicts(updates);
  // MongoDB 5.0+ applies update paths in lexicographic order (numeric parts numerically)
  updates.sort((a, b) => comparePaths(a.parts, b.parts));

  const walker = new PathWalker(options);
  const result = cloneDocument(doc);
  for (const entry of updates) {
    if (entry.operator === '$setOnInsert' && !options.isInsert) continue;
    applyOne(result, entry, walker, options);
  }
  walker.checkAllFiltersUsed();
  if (doc._id !== undefined && !valuesEqual(result._id, doc._id)) throw immutableId();
  if (doc._id === undefined && '_id' in result) {
    // an upserted document gets its _id first, like MongoDB
    const { _id, ...rest } = result;
    return { _id, ...rest };
  }
  return result;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  return typeof value;
}

function checkConflicts(updates: readonly PathUpdate[]): void {
  const paths: string[] = [];
  for (const entry of updates) {
    paths.push(entry.path);
    if (entry.operator === '$rename') {
      if (typeof entry.argument !== 'string') throw badValue(`The 'to' field for $rename must be a string: ${entry.path}: ${String(entry.argument)}`);
      if (entry.argument === entry.path) throw badValue(`The source and target field for $rename must differ: ${entry.path}: "${entry.argument}"`);
      paths.push(entry.argument);
    }
  }
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const a = paths[i] as string;
      const b = paths[j] as string;
      if (a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`)) {
        throw new CommandError(40, 'ConflictingUpdateOperators', `Updating the path '${b}' would create a conflict at '${a.length < b.length ? a : b}'`);
      }
    }
  }
}

function comparePaths(a: readonly string[], b: readonly string[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x === y) continue;
    if (isArrayIndex(x) && isArrayIndex(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

type Container = Document | unknown[];
/** Called with the container that holds the target field and the field's name or index. */
type Target = (container: Container, key: string) => void;

/** Resolves update paths, including `$`, `$[]` and `$[identifier]`, against the document being built. */
class PathWalker {
  private readonly elementFilters = new Map<string, (element: unknown) => boolean>();
  private readonly usedIdentifiers = new Set<string>();

  constructor(private readonly options: UpdateOptions) {
    for (const arrayFilter of options.arrayFilters ?? []) {
      if (!isPlainDocument(arrayFilter)) throw failedToParse('arrayFilters entries must be objects');
      const identifier = filterIdentifier(arrayFilter);
      if (this.elementFilters.has(identifier)) throw failedToParse(`Found multiple array filters with the same top-level field name ${identifier}`);
      const predicate = compileFilter(renameIdentifier(arrayFilter, identifier), scopeOf(options));
      this.elementFilters.set(identifier, (element) => predicate({ [ELEMENT]: element }));
    }
  }

  /** Visits every field the path designates. `create` makes missing intermediate documents. */
  visit(root: Document, parts: readonly string[], create: boolean, target: Target): void {
    this.step(root, parts, 0, create, target);
  }

  checkAllFiltersUsed(): void {
    for (const identifier of this.elementFilters.keys()) {
      if (!this.usedIdentifiers.has(identifier)) {
        throw failedToParse(`The array filter for identifier '${identifier}' was not used in the update`);
      }
    }
  }

  private step(node: Container, parts: readonly string[], index: number, create: boolean, target: Target): void {
    const part = parts[index] as string;
    const last = index === parts.length - 1;
    if (part.startsWith('$')) {
      if (!Array.isArray(node)) {
        throw badValue(`The path '${parts.slice(0, index).join('.')}' must exist in the document in order to apply array updates.`);
      }
      for (const position of this.positions(node, parts, index)) {
        if (last) target(node, String(position));
        else this.descend(node, String(position), parts, index, create, target);
      }
      return;
    }
    if (last) {
      if (Array.isArray(node) && !isArrayIndex(part)) {
        if (create) throw pathNotViable(part, node);
        return;
      }
      target(node, part);
      return;
    }
    this.descend(node, part, parts, index, create, target);
  }

  private descend(node: Container, part: string, parts: readonly string[], index: number, create: boolean, target: Target): void {
    if (Array.isArray(node) && !isArrayIndex(part)) {
      if (create) throw pathNotViable(part, node);
      return;
    }
    const container = node as Document;
    let child: unknown = container[part];
    const next = parts[index + 1] as string;
    // update_array_node.cpp: `$[]` or `$[id]` on an element that is there but no array fails, whatever the operator.
    if (child !== undefined && !Array.isArray(child) && next.startsWith('$[')) throw badValue(`Cannot apply array updates to non-array element ${part}: ${formatShellValue(child)}`);
    if (child === undefined) {
      if (!create) return;
      child = {};
      if (Array.isArray(node)) padArray(node, Number(part));
      container[part] = child;
    }
    if (!isPlainDocument(child) && !Array.isArray(child)) {
      if (create) throw pathNotViable(next, child);
      return;
    }
    this.step(child, parts, index + 1, create, target);
  }

  private positions(array: unknown[], parts: readonly string[], index: number): number[] {
    const token = parts[index] as string;
    if (token === '$[]') return array.map((_, i) => i);
    if (token === '$') return [this.positionalIndex(array, parts.slice(0, index).join('.'))];
    const match = /^\$\[([a-z][a-zA-Z0-9]*)\]$/.exec(token);
    if (!match) throw badValue(`The path '${parts.join('.')}' contains an invalid positional operator '${token}'`);
    const identifier = match[1] as string;
    const test = this.elementFilters.get(identifier);
    if (!test) throw badValue(`No array filter found for identifier '${identifier}' in path '${parts.join('.')}'`);
    this.usedIdentifiers.add(identifier);
    const out: number[] = [];
    array.forEach((element, i) => {
      if (test(element)) out.push(i);
    });
    return out;
  }

  /** MongoDB docs: "$ (update)" — the first element the query matched in the array at `prefix`. */
  private positionalIndex(array: unknown[], prefix: string): number {
    const filter = this.options.filter ?? {};
    const relevant = relevantConditions(filter, prefix);
    if (relevant.length > 0) {
      const predicate = compileFilter({ $and: relevant }, scopeOf(this.options));
      const prefixParts = prefix.split('.');
      for (let i = 0; i < array.length; i++) {
        if (predicate(nestUnder(prefixParts, [array[i]]))) return i;
      }
    }
    throw badValue('The positional operator did not find the match needed from the query.');
  }
}

const ELEMENT = '__element__';

/** The filter scope of an update: its collation (`let` variables reach only pipeline updates). */
function scopeOf(options: UpdateOptions): { collation?: Collation } {
  return options.collation === undefined ? {} : { collation: options.collation };
}

/** The identifier an array filter declares: its one top-level field name, looked for through `$and`, `$or` and `$nor` as MongoDB does. */
export function filterIdentifier(arrayFilter: Document): string {
  const identifiers = new Set<string>();
  const collect = (filter: Document): void => {
    for (const key of Object.keys(filter)) {
      if (key === '$and' || key === '$or' || key === '$nor') {
        for (const branch of filter[key] as Document[]) collect(branch);
      } else if (!key.startsWith('$')) identifiers.add(key.split('.')[0] as string);
    }
  };
  collect(arrayFilter);
  if (identifiers.size !== 1) throw failedToParse('Each array filter must use a single top-level field name');
  const [identifier] = identifiers as Set<string>;
  if (!/^[a-z][a-zA-Z0-9]*$/.test(identifier as string)) {
    throw badValue(`The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${identifier}'`);
  }
  return identifier as string;
}

/** `{ "x.a": 1 }` for identifier x becomes `{ "__element__.a": 1 }`, tested against `{ __element__: element }`. */
function renameIdentifier(filter: Document, identifier: string): Document {
  const out: Document = {};
  for (const key of Object.keys(filter)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      out[key] = (filter[key] as Document[]).map((branch) => renameIdentifier(branch, identifier));
    } else if (key === identifier) out[ELEMENT] = filter[key];
    else if (key.startsWith(`${identifier}.`)) out[`${ELEMENT}${key.slice(identifier.length)}`] = filter[key];
    else out[key] = filter[key];
  }
  return out;
}

/** The filter's conditions on `prefix` or below it (also inside `$and`). */
function relevantConditions(filter: Document, prefix: string): Document[] {
  const out: Document[] = [];
  for (const key of Object.keys(filter)) {
    if (key === '$and' && Array.isArray(filter.$and)) {
      for (const branch of filter.$and as Document[]) out.push(...relevantConditions(branch, prefix));
    } else if (key === prefix || key.startsWith(`${prefix}.`)) out.push({ [key]: filter[key] });
  }
  return out;
}

function nestUnder(parts: readonly string[], value: unknown): Document {
  let node: unknown = value;
  for (let i = parts.length - 1; i >= 0; i--) node = { [parts[i] as string]: node };
  return node as Document;
}

function padArray(array: unknown[], index: number): void {
  while (array.length < index) array.push(null);
}

function read(container: Container, key: string): unknown {
  return (container as Document)[key];
}

function write(container: Container, key: string, value: unknown): void {
  if (Array.isArray(container)) {
    padArray(container, Number(key));
    container[Number(key)] = value;
    return;
  }
  if (key === '__proto__') Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  else container[key] = value;
}

function remove(container: Container, key: string): void {
  if (Array.isArray(container)) {
    // MongoDB: $unset on an array element sets it to null rather than shifting the array
    if (Number(key) < container.length) container[Number(key)] = null;
    return;
  }
  delete container[key];
}

function applyOne(result: Document, entry: PathUpdate, walker: PathWalker, options: UpdateOptions): void {
  const { operator, argument, parts, path } = entry;
  switch (operator) {
    case '$set':
    case '$setOnInsert':
      walker.visit(result, parts, true, (c, k) => write(c, k, cloneDocument(argument)));
      return;
    case '$unset':
      walker.visit(result, parts, false, (c, k) => remove(c, k));
      return;
    case '$inc':
    case '$mul': {
      if (!isNumeric(argument)) {
        throw typeMismatch(`Cannot ${operator === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${String(argument)}}`);
      }
      walker.visit(result, parts, true, (c, k) => {
        const current = read(c, k);
        if (current === undefined) {
          write(c, k, operator === '$inc' ? argument : zeroLike(argument));
          return;
        }
        if (!isNumeric(current)) {
          throw typeMismatch(`Cannot apply ${operator} to a value of non-numeric type. {_id: ${String(result._id)}} has the field '${k}' of non-numeric type ${typeName(current)}`);
        }
        write(c, k, checkedArithmetic(operator === '$inc' ? 'add' : 'multiply', current, argument, path));
      });
      return;
    }
    case '$min':
    case '$max':
      walker.visit(result, parts, true, (c, k) => {
        const current = read(c, k);
        const c0 = current === undefined ? undefined : valueComparator(options.collation)(argument, current);
        if (c0 === undefined || (operator === '$min' ? c0 < 0 : c0 > 0)) write(c, k, cloneDocument(argument));
      });
      return;
    case '$rename': {
      const to = (argument as string).split('.');
      if (parts.some((p) => p.startsWith('$')) || to.some((p) => p.startsWith('$'))) {
        throw badValue('The source and target field for $rename must not contain positional operators');
      }
      assertRenameSourceViable(result, parts);
      let moved: unknown;
      let found = false;
      walker.visit(result, parts, false, (c, k) => {
        if (Array.isArray(c)) throw badValue(`The source field cannot be an array element, '${path}' in doc with _id: ${String(result._id)}`);
        if (k in c) {
          moved = c[k];
          found = true;
          delete c[k];
        }
      });
      if (found) walker.visit(result, to, true, (c, k) => write(c, k, moved));
      return;
    }
    case '$currentDate': {
      const type = isPlainDocument(argument) ? argument.$type : argument === true ? 'date' : undefined;
      if (type !== 'date' && type !== 'timestamp') {
        throw badValue(`${path} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`);
      }
      const now = Date.now();
      const value = type === 'date' ? new Date(now) : new Timestamp({ t: Math.floor(now / 1000), i: 1 });
      walker.visit(result, parts, true, (c, k) => write(c, k, value));
      return;
    }
    case '$push':
    case '$addToSet':
      walker.visit(result, parts, true, (c, k) => write(c, k, pushInto(arrayAt(c, k, path, result), argument, operator, options.collation)));
      return;
    case '$pop': {
      const direction = plainNumber(argument);
      if (direction !== 1 && direction !== -1) throw failedToParse(`$pop expects 1 or -1, found: ${String(argument)}`);
      walker.visit(result, parts, false, (c, k) => {
        if (read(c, k) === undefined) return;
        const array = arrayAt(c, k, path, result);
        write(c, k, direction === 1 ? array.slice(0, -1) : array.slice(1));
      });
      return;
    }
    case '$pull': {
      const matches = pullMatcher(argument, options.collation);
      walker.visit(result, parts, false, (c, k) => {
        if (read(c, k) === undefined) return;
        write(c, k, arrayAt(c, k, path, result).filter((element) => !matches(element)));
      });
      return;
    }
    case '$pullAll': {
      if (!Array.isArray(argument)) throw badValue(`$pullAll requires an array argument but was given a ${typeName(argument)}`);
      const removed = inList(argument, options.collation);
      walker.visit(result, parts, false, (c, k) => {
        if (read(c, k) === undefined) return;
        write(c, k, arrayAt(c, k, path, result).filter((element) => !removed(element)));
      });
      return;
    }
    case '$bit':
      walker.visit(result, parts, true, (c, k) => write(c, k, applyBit(read(c, k), argument, path)));
      return;
    default: {
      const unreachable: never = operator;
      throw failedToParse(`Unknown modifier: ${String(unreachable)}`);
    }
  }
}

function zeroLike(multiplier: unknown): unknown {
  switch (numericWidth(multiplier)) {
    case 'long':
      return Long.fromNumber(0);
    case 'decimal':
      return Decimal128.fromString('0');
    default:
      return 0;
  }
}

function checkedArithmetic(operation: 'add' | 'multiply', current: unknown, argument: unknown, path: string): unknown {
  const result = arithmetic(operation, current, argument);
  const width = (v: unknown): string | undefined => numericWidth(v);
  const longOnly = [width(current), width(argument)].includes('long') && ![width(current), width(argument)].some((w) => w === 'double' || w === 'decimal');
  if (longOnly && typeof result === 'number') {
    throw badValue(`Failed to apply ${operation === 'add' ? '$inc' : '$mul'} operations to current value (${String(current)}) for field '${path}': integer overflow`);
  }
  return result;
}

function arrayAt(container: Container, key: string, path: string, doc: Document): unknown[] {
  const current = read(container, key);
  if (current === undefined) return [];
  if (!Array.isArray(current)) {
    throw badValue(`The field '${path}' must be an array but is of type ${typeName(current)} in document {_id: ${String(doc._id)}}`);
  }
  return current;
}

/** Membership in `list` by MongoDB equality, or by the collation's equality when there is one. */
function inList(list: readonly unknown[], collation: Collation | undefined): (value: unknown) => boolean {
  if (collation !== undefined) {
    const compare = valueComparator(collation);
    return (value) => list.some((item) => compare(item, value) === 0);
  }
  const keys = new Set(list.map(valueKey));
  return (value) => keys.has(valueKey(value));
}

function pushInto(array: unknown[], argument: unknown, operator: '$push' | '$addToSet', collation: Collation | undefined): unknown[] {
  const withEach = isPlainDocument(argument) && '$each' in argument;
  const items: unknown[] = withEach ? (argument.$each as unknown[]) : [argument];
  if (!Array.isArray(items)) throw badValue(`The argument to $each in ${operator} must be an array but it was of type: ${typeName(items)}`);
  if (operator === '$addToSet') {
    if (withEach && Object.keys(argument).length > 1) throw badValue('Found unexpected fields after $each in $addToSet');
    const out = [...array];
    if (collation !== undefined) {
      const compare = valueComparator(collation);
      for (const item of items) if (!out.some((present) => compare(present, item) === 0)) out.push(cloneDocument(item));
      return out;
    }
    const keys = new Set(array.map(valueKey));
    for (const item of items) {
      const key = valueKey(item);
      if (!keys.has(key)) {
        keys.add(key);
        out.push(cloneDocument(item));
      }
    }
    return out;
  }
  const modifiers = withEach ? (argument as Document) : {};
  for (const key of Object.keys(modifiers)) {
    if (!['$each', '$position', '$slice', '$sort'].includes(key)) throw badValue(`Unrecognized clause in $push: ${key}`);
  }
  let out = [...array];
  const copies = items.map((item) => cloneDocument(item));
  if (modifiers.$position !== undefined) {
    const position = integralNumber(modifiers.$position);
    if (position === undefined || !Number.isInteger(position)) throw badValue('The value for $position must be an integer value');
    const at = position < 0 ? Math.max(0, out.length + position) : Math.min(position, out.length);
    out.splice(at, 0, ...copies);
  } else {
    out.push(...copies);
  }
  if (modifiers.$sort !== undefined) out = sortArray(out, modifiers.$sort, collation);
  if (modifiers.$slice !== undefined) {
    const slice = integralNumber(modifiers.$slice);
    if (slice === undefined || !Number.isInteger(slice)) throw badValue('The value for $slice must be an integer value');
    out = slice >= 0 ? out.slice(0, slice) : out.slice(Math.max(0, out.length + slice));
  }
  return out;
}

/** `$push`'s `$sort`: 1/-1 sorts the elements themselves; a document sorts element documents by fields. */
function sortArray(array: unknown[], spec: unknown, collation: Collation | undefined): unknown[] {
  const direction = plainNumber(spec);
  if (direction === 1 || direction === -1) {
    const compare = valueComparator(collation);
    return array
      .map((value, index) => ({ value, index }))
      .sort((a, b) => direction * compare(a.value, b.value) || a.index - b.index)
      .map((entry) => entry.value);
  }
  if (!isPlainDocument(spec) || Object.keys(spec).length === 0) throw badValue('The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields');
  const pattern = Object.entries(spec).map(([path, value]) => {
    const order = plainNumber(value);
    if (order !== 1 && order !== -1) throw badValue('The $sort element value must be either 1 or -1');
    return { segments: path.split('.'), order };
  });
  const compare = valueComparator(collation);
  // push_sorter.h: each element's key is its fields as getFieldDotted reads them (an array is one value,
  // compared whole; a path does not reach into an array's elements; missing is null), not find's sort keys.
  const keyed = array.map((value, index) => ({ value, index, key: pattern.map(({ segments }) => plainDottedField(value, segments)) }));
  keyed.sort((a, b) => {
    for (const [position, { order }] of pattern.entries()) {
      const difference = compare(a.key[position], b.key[position]);
      if (difference !== 0) return order * difference;
    }
    return a.index - b.index;
  });
  return keyed.map((entry) => entry.value);
}

/**
 * The value at `segments` of an element as getFieldDotted finds it: through documents, or an array inside
 * one by its index; null when nothing is there, as for an element that is no document.
 */
function plainDottedField(element: unknown, segments: readonly string[]): unknown {
  if (!isPlainDocument(element)) return null;
  let value: unknown = element;
  for (const segment of segments) {
    if (isPlainDocument(value)) value = (value as Document)[segment];
    else if (Array.isArray(value) && isArrayIndex(segment)) value = value[Number(segment)];
    else return null;
  }
  return value === undefined ? null : value;
}

/**
 * MongoDB's $pull (pull_node.cpp): a document condition is a query on element documents; an operator
 * document or a regex tests each element as a field value, arrays inside it included; any other value
 * (a scalar, an array) removes the elements equal to it as a whole.
 */
function pullMatcher(condition: unknown, collation: Collation | undefined): (element: unknown) => boolean {
  const scope = collation === undefined ? undefined : { collation };
  if (isPlainDocument(condition)) {
    const keys = Object.keys(condition);
    if (keys.length > 0 && !(keys[0] as string).startsWith('$')) {
      const predicate = compileFilter(condition, scope);
      return (element) => isPlainDocument(element) && predicate(element);
    }
  }
  return compileValueMatcher(condition, scope, { singleElement: !isPlainDocument(condition) && regexParts(condition) === undefined });
}

function applyBit(current: unknown, argument: unknown, path: string): unknown {
  if (!isPlainDocument(argument)) throw badValue(`The $bit modifier is not compatible with a ${typeName(argument)}. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}`);
  let value = current === undefined ? 0 : current;
  if (!(typeof value === 'number' && Number.isInteger(value)) && numericWidth(value) !== 'long' && numericWidth(value) !== 'int') {
    throw badValue(`Cannot apply $bit to a value of non-integral type. The field '${path}' is of type ${bsonTypeNumber(value)}`);
  }
  for (const op of Object.keys(argument)) {
    const operand: unknown = argument[op];
    const isLong = numericWidth(value) === 'long' || numericWidth(operand) === 'long';
    const big = (v: unknown): bigint => (numericWidth(v) === 'long' ? longToBigInt(v as Long) : BigInt(plainNumber(v) ?? 0));
    let out: bigint;
    if (op === 'and') out = big(value) & big(operand);
    else if (op === 'or') out = big(value) | big(operand);
    else if (op === 'xor') out = big(value) ^ big(operand);
    else throw badValue(`The $bit modifier only supports 'and', 'or', and 'xor', not '${op}'`);
    value = isLong ? Long.fromBigInt(BigInt.asIntN(64, out)) : Number(BigInt.asIntN(32, out));
  }
  return value;
}

/** `$position` and `$slice` as push_node.cpp reads them: any integral number (an int, a long, a double or decimal with no fraction). */
function integralNumber(value: unknown): number | undefined {
  const width = numericWidth(value);
  if (width === 'long') return Number(longToBigInt(value as Long));
  if (width === 'decimal') {
    const parsed = Number(String(value));
    return Number.isInteger(parsed) ? parsed : undefined;
  }
  return plainNumber(value);
}

function pathNotViable(field: string, parent: unknown): CommandError {
  return new CommandError(ErrorCodes.PathNotViable, 'PathNotViable', `Cannot create field '${field}' in element {${typeName(parent)}}`);
}

/**
 * MongoDB's $rename (rename_node.cpp, pathsupport::findLongestPrefix): a source path that names a
 * field of an array cannot be traversed, and fails where `$unset` of it does nothing.
 */
function assertRenameSourceViable(doc: Document, parts: readonly string[]): void {
  let node: unknown = doc;
  for (const [index, part] of parts.entries()) {
    if (Array.isArray(node) && !isArrayIndex(part)) {
      throw new CommandError(ErrorCodes.PathNotViable, 'PathNotViable', `cannot use the part (${part} of ${parts.join('.')}) to traverse the element ({${parts[index - 1]}: array})`);
    }
    if (!isPlainDocument(node) && !Array.isArray(node)) return;
    node = (node as Document)[part];
  }
}

function immutableId(): CommandError {
  return new CommandError(66, 'ImmutableField', "Performing an update on the path '_id' would modify the immutable field '_id'");
}

function typeMismatch(message: string): CommandError {
  return new CommandError(14, 'TypeMismatch', message);
}

function failedToParse(message: string): CommandError {
  return new CommandError(9, 'FailedToParse', message);
}

function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, 'BadValue', message);
}
