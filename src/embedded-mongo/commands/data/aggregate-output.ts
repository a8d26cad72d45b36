import { ObjectId, type Document } from 'bson';
import { evaluateExpression, OUTPUT_STAGES, withMongoFieldPaths, type QueryScope } from '../../query';
import type { Collection } from '../../storage/collection';
import { ID_INDEX } from '../../storage/collection';
import type { CollectionView } from '../../storage/collection-view';
import { documentKey } from '../../storage/document-key';
import { duplicateKeyError } from '../../storage/duplicate-key-error';
import { assertNotView, type Store } from '../../storage/store';
import { storableDocument } from '../../storage/stored-document';
import { CommandError, LocationCodes, locationError, namedError } from '../../protocol/command-error';
import { isDocument } from './command-fields';
import { updatedDocument, type UpdateSpec } from './document-updates';

/** Where `$out`/`$merge` write: a collection of this or another database. */
interface OutputTarget {
  readonly db: string;
  readonly coll: string;
}

type WhenMatched = 'replace' | 'merge' | 'keepExisting' | 'fail' | Document[];
type WhenNotMatched = 'insert' | 'discard' | 'fail';

/** A parsed last stage that writes: `$out` replaces a collection, `$merge` merges into one. */
export type OutputStage =
  | { readonly kind: '$out'; readonly target: OutputTarget }
  | {
      readonly kind: '$merge';
      readonly target: OutputTarget;
      readonly on: readonly string[];
      readonly whenMatched: WhenMatched;
      readonly whenNotMatched: WhenNotMatched;
      readonly let?: Document;
    };

/**
 * Splits a trailing `$out`/`$merge` off an aggregate pipeline and parses it (MongoDB docs: "$out",
 * "$merge"). Elsewhere in the pipeline they fail in runPipeline (40601).
 */
export function splitOutputStage(pipeline: Document[], database: string): { pipeline: Document[]; output?: OutputStage } {
  const last = pipeline[pipeline.length - 1];
  const name = last === undefined ? undefined : Object.keys(last)[0];
  if (last === undefined || name === undefined || !OUTPUT_STAGES.has(name) || Object.keys(last).length !== 1) return { pipeline };
  const output = name === '$out' ? parseOut(last.$out, database) : parseMerge(last.$merge, database);
  return { pipeline: pipeline.slice(0, -1), output };
}

/**
 * Writes an aggregation's results. `$out` replaces the target's documents in one step, keeping its
 * options and indexes, or changes nothing when a document breaks a unique index (11000). `$merge`
 * writes each result by its `on` fields; as in MongoDB, whose batches are unordered, every result
 * is tried and the first failure is reported after the rest were written.
 */
export async function writeOutput(store: Store, output: OutputStage, results: readonly Document[], scope: QueryScope, inTransaction: boolean): Promise<void> {
  if (inTransaction) throw namedError('OperationNotSupportedInTransaction', `${output.kind} cannot be used in a transaction`);
  assertNotView(store.viewCatalog, output.target.db, output.target.coll);
  if (output.kind === '$out') {
    replaceWith(store, output.target, results);
    return;
  }
  await merge(store, output, results, scope);
}

function parseOut(spec: unknown, database: string): OutputStage {
  if (typeof spec === 'string') return { kind: '$out', target: { db: database, coll: spec } };
  if (!isDocument(spec)) throw namedError('TypeMismatch', `$out only supports a string or object argument, but found ${typeName(spec)}`);
  for (const field of Object.keys(spec)) {
    if (field !== 'db' && field !== 'coll') throw namedError('IDLUnknownField', `BSON field '$out.${field}' is an unknown field.`);
  }
  for (const field of ['db', 'coll'] as const) {
    if (spec[field] === undefined) throw namedError('IDLFailedToParse', `BSON field '$out.${field}' is missing but a required field`);
    if (typeof spec[field] !== 'string') throw wrongType(`$out.${field}`, spec[field], 'string');
  }
  return { kind: '$out', target: { db: spec.db as string, coll: spec.coll as string } };
}

const MERGE_FIELDS = new Set(['into', 'on', 'let', 'whenMatched', 'whenNotMatched']);
const WHEN_MATCHED = new Set(['replace', 'merge', 'keepExisting', 'fail']);
const WHEN_NOT_MATCHED = new Set(['insert', 'discard', 'fail']);

/** The whenMatched/whenNotMatched pairs MongoDB supports (merge_processor.cpp's descriptors). */
const SUPPORTED_MODES = new Set([
  'replace/insert', 'replace/fail', 'replace/discard',
  'merge/insert', 'merge/fail', 'merge/discard',
  'keepExisting/insert',
  '[pipeline]/insert', '[pipeline]/fail', '[pipeline]/discard',
  'fail/insert',
]);

function parseMerge(spec: unknown, database: string): OutputStage {
  if (typeof spec === 'string') return { kind: '$merge', target: { db: database, coll: spec }, on: ['_id'], whenMatched: 'merge', whenNotMatched: 'insert' };
  if (!isDocument(spec)) throw namedError('TypeMismatch', `$merge requires a string or object argument, but found ${typeName(spec)}`);
  for (const field of Object.keys(spec)) {
    if (!MERGE_FIELDS.has(field)) throw namedError('IDLUnknownField', `BSON field '$merge.${field}' is an unknown field.`);
  }
  const target = mergeTarget(spec.into, database);
  const on = mergeOn(spec.on);
  const whenMatched = mergeWhenMatched(spec.whenMatched);
  const whenNotMatched = spec.whenNotMatched ?? 'insert';
  if (typeof whenNotMatched !== 'string') throw wrongType('$merge.whenNotMatched', whenNotMatched, 'string');
  if (!WHEN_NOT_MATCHED.has(whenNotMatched)) throw namedError('BadValue', `Enumeration value '${whenNotMatched}' for field 'whenNotMatched' is not a valid value.`);
  const matchedName = Array.isArray(whenMatched) ? '[pipeline]' : whenMatched;
  if (!SUPPORTED_MODES.has(`${matchedName}/${whenNotMatched}`)) {
    throw locationError(LocationCodes.mergeModesNotSupported, `Combination of $merge modes 'whenMatched: ${matchedName}' and 'whenNotMatched: ${whenNotMatched}' is not supported`);
  }
  let letSpec: Document | undefined;
  if (spec.let !== undefined) {
    if (!isDocument(spec.let)) throw wrongType('$merge.let', spec.let, 'object');
    if (!Array.isArray(whenMatched)) throw locationError(LocationCodes.mergeLetWithoutPipeline, `Cannot use 'let' variables with 'whenMatched: ${whenMatched}' mode`);
    letSpec = spec.let;
  }
  return { kind: '$merge', target, on, whenMatched, whenNotMatched: whenNotMatched as WhenNotMatched, ...(letSpec === undefined ? {} : { let: letSpec }) };
}

function mergeTarget(into: unknown, database: string): OutputTarget {
  if (into === undefined) throw namedError('IDLFailedToParse', "BSON field '$merge.into' is missing but a required field");
  if (typeof into === 'string') return { db: database, coll: into };
  if (!isDocument(into)) throw wrongType('$merge.into', into, 'string or object');
  const coll: unknown = into.coll;
  const db: unknown = into.db ?? database;
  if (typeof coll !== 'string' || typeof db !== 'string') throw namedError('BadValue', "$merge 'into' must name a collection: { db, coll }");
  return { db, coll };
}

function mergeOn(on: unknown): string[] {
  if (on === undefined) return ['_id'];
  const fields = typeof on === 'string' ? [on] : on;
  if (!Array.isArray(fields) || fields.length === 0 || !fields.every((field): field is string => typeof field === 'string')) {
    throw namedError('TypeMismatch', "$merge 'on' must be a string or a non-empty array of strings");
  }
  return fields;
}

function mergeWhenMatched(value: unknown): WhenMatched {
  if (value === undefined) return 'merge';
  if (Array.isArray(value)) {
    if (!value.every(isDocument)) throw namedError('TypeMismatch', "$merge 'whenMatched' pipeline stages must be objects");
    return value;
  }
  if (typeof value !== 'string') throw wrongType('$merge.whenMatched', value, 'string or array');
  if (!WHEN_MATCHED.has(value)) throw namedError('BadValue', `Enumeration value '${value}' for field 'whenMatched' is not a valid value.`);
  return value as WhenMatched;
}

/** `$out`: a fresh copy of the target (options, indexes) holding exactly the results, swapped in. */
function replaceWith(store: Store, target: OutputTarget, results: readonly Document[]): void {
  store.replaceCollection(
    target.db,
    target.coll,
    results.map((result) => storableDocument(result)),
  );
}

type MergeOutput = Extract<OutputStage, { kind: '$merge' }>;

async function merge(store: Store, output: MergeOutput, results: readonly Document[], scope: QueryScope): Promise<void> {
  const { db, coll } = output.target;
  const onId = output.on.length === 1 && output.on[0] === '_id';
  const existing = store.collection(db, coll);
  const uniqueIndex = onId ? ID_INDEX.name : existing === undefined ? undefined : uniqueIndexOn(existing, output.on);
  if (uniqueIndex === undefined) throw locationError(LocationCodes.mergeOnFieldsNotUnique, 'Cannot find index to verify that join fields will be unique');
  let view: CollectionView | undefined = existing === undefined ? undefined : store.view(existing, undefined);
  const target = (): CollectionView => (view ??= store.view(store.ensureCollection(db, coll), undefined));
  let failure: CommandError | undefined;
  for (const result of results) {
    const source = onId && result._id === undefined ? { ...result, _id: new ObjectId() } : result;
    const filter = onFilter(source, output.on);
    const matched = view?.match(filter, 1, scope)[0];
    try {
      if (matched === undefined) await mergeUnmatched(target(), output, source);
      else await mergeMatched(target(), output, source, matched, filter, scope, uniqueIndex);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/** A unique index whose key is exactly the `on` fields (in any order), as `$merge` requires. */
function uniqueIndexOn(collection: Collection, on: readonly string[]): string | undefined {
  const wanted = [...on].sort().join('\0');
  const index = collection
    .indexDefinitions()
    .find((definition) => definition.unique && definition.options.partialFilterExpression === undefined && Object.keys(definition.key).sort().join('\0') === wanted);
  return index?.name;
}

/** `{ field: { $eq: value } }` per `on` field; a missing value matches null (or missing), an array fails (51185). */
function onFilter(source: Document, on: readonly string[]): Document {
  const filter: Document = {};
  for (const path of on) {
    let value: unknown = source;
    for (const part of path.split('.')) value = isDocument(value) ? value[part] : undefined;
    if (Array.isArray(value)) throw locationError(LocationCodes.mergeOnFieldIsArray, `$merge write error: 'on' field '${path}' is an array`);
    filter[path] = { $eq: value === undefined ? null : value };
  }
  return filter;
}

async function mergeUnmatched(target: CollectionView, output: MergeOutput, source: Document): Promise<void> {
  switch (output.whenNotMatched) {
    case 'discard':
      return;
    case 'fail':
      throw namedError('MergeStageNoMatchingDocument', '$merge could not find a matching document in the target collection for at least one document in the source collection');
    case 'insert': {
      const doc = storableDocument(source);
      const id = documentKey(doc._id);
      for (let blocker = target.writeBlocker(id, doc); blocker !== undefined; blocker = target.writeBlocker(id, doc)) await blocker;
      target.insert(doc);
      return;
    }
    default: {
      const unreachable: never = output.whenNotMatched;
      return unreachable;
    }
  }
}

async function mergeMatched(
  target: CollectionView,
  output: MergeOutput,
  source: Document,
  matched: Document,
  filter: Document,
  scope: QueryScope,
  uniqueIndex: string,
): Promise<void> {
  const whenMatched = output.whenMatched;
  if (whenMatched === 'keepExisting') return;
  if (whenMatched === 'fail') {
    const keyValue = Object.fromEntries(Object.entries(filter).map(([path, condition]) => [path, (condition as Document).$eq]));
    const keyPattern = Object.fromEntries(output.on.map((path) => [path, 1]));
    const duplicate = duplicateKeyError(target.collection.ns, uniqueIndex, keyPattern, keyValue);
    throw withContext(duplicate, "$merge with whenMatched: fail found an existing document with the same values for the 'on' field");
  }
  const spec: UpdateSpec = Array.isArray(whenMatched)
    ? { filter, update: whenMatched, scope: { ...scope, variables: { ...scope.variables, ...mergeVariables(output, source) } } }
    : { filter, update: whenMatched === 'merge' ? { $set: source } : source, scope };
  let next: Document | undefined;
  try {
    next = updatedDocument(matched, spec);
  } catch (error) {
    if (error instanceof CommandError && error.codeName === 'ImmutableField') {
      throw withContext(error, '$merge failed to update the matching document, did you attempt to modify the _id or the shard key?');
    }
    throw error;
  }
  if (next === undefined) return;
  const id = documentKey(matched._id);
  for (let blocker = target.writeBlocker(id, next); blocker !== undefined; blocker = target.writeBlocker(id, next)) await blocker;
  target.replace(id, next);
}

/** A whenMatched pipeline's variables: `$$new` (the result document) and `let`, evaluated against it. */
function mergeVariables(output: MergeOutput, source: Document): Record<string, unknown> {
  const variables: Record<string, unknown> = { new: source };
  for (const [name, expression] of Object.entries(output.let ?? {})) variables[name] = evaluateExpression(source, withMongoFieldPaths(expression));
  return variables;
}

/** MongoDB's `addContext`: the same error, its message prefixed. */
function withContext(error: CommandError, context: string): CommandError {
  return new CommandError(error.code, error.codeName, `${context} :: caused by :: ${error.message}`, error.extra, error.errorLabels);
}

function wrongType(path: string, value: unknown, expected: string): CommandError {
  return namedError('TypeMismatch', `BSON field '${path}' is the wrong type '${typeName(value)}', expected type '${expected}'`);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}
