import {
  getArgumentValues,
  isListType,
  isNonNullType,
  locatedError,
  responsePathAsArray,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLLeafType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type ResponsePath,
} from 'graphql';
import type { FieldPlan, LeafPlan, OwnedOperation, RelationPlan, ResolvedLeaf, SchemaFieldPlan, SelectionPlan, StoredLeaf } from '../../operation/plan/owned-plan';
import { isPromise } from './is-promise';

type ResponseObject = Record<string, unknown>;

/** Where an object of the next level goes, until its answer is built. */
const AWAITED = Symbol('awaited object');

/**
 * Runs a query or mutation docjoin owns end to end (owned-plan.ts) straight from its plan, level by level (a
 * mutation's root fields one after the other): for each
 * relation, docjoin's resolver runs once per parent, with the arguments, `info.fieldNodes` and
 * `info.path` graphql-js would give it, so the loads, their batches and the cost recorded are the same;
 * then the documents of every parent become the next level's response objects in one pass. Leaves are
 * read from the documents and serialized by their types as graphql-js does; errors are located at their
 * field's (or list item's) path, and a null in a non-null place nulls the nearest nullable parent.
 */
export function executeOwnedOperation(options: OwnedRunOptions): Promise<ExecutionResult> {
  return new OwnedRun(options).run();
}

interface OwnedRunOptions {
  readonly schema: GraphQLSchema;
  readonly owned: OwnedOperation;
  readonly contextValue: unknown;
  /** Coerced, as graphql-js's getVariableValues gives them. */
  readonly variableValues: Readonly<Record<string, unknown>>;
  /**
   * Why the operation must stop (its deadline's reason), or undefined. A query stopped builds no further
   * level: each relation still to be placed answers the reason instead, as its reads would have; its
   * answer is that one error (operation-deadline-plugin.ts).
   */
  readonly stoppedBy?: () => Error | undefined;
  /** Counts a list of leaves of `type` toward the response's size; throws to stop the operation (GatewayContext.countResponseList). */
  readonly countLeafList?: (type: GraphQLOutputType, list: readonly unknown[]) => void;
}

class OwnedRun {
  readonly #errors: GraphQLError[] = [];
  readonly #pending: Array<Promise<unknown>> = [];
  readonly #infos = new Map<FieldPlan, GraphQLResolveInfo>();
  readonly #args = new Map<FieldPlan, Record<string, unknown>>();
  /** Whether some null stands where the type forbids one: its parents are nulled once everything has settled. */
  #forbiddenNull = false;
  /** Deferred work awaited so far. */
  #settled = 0;

  constructor(private readonly options: OwnedRunOptions) {}

  async run(): Promise<ExecutionResult> {
    const { root, operation } = this.options.owned;
    const data: ResponseObject = {};
    if (operation.operation === 'mutation') return this.#runSerially(root, data);
    this.#fill(root, [data], [undefined], [undefined]);
    await this.#settle();
    return this.#result(this.#forbiddenNull ? withoutForbiddenNulls(root, data) : data);
  }

  /**
   * A mutation's root fields as graphql-js runs them: one after the other, each with everything below
   * it settled before the next starts; a null its type forbids ends the operation with `data: null`,
   * and the fields after it do not run.
   */
  async #runSerially(root: SelectionPlan, data: ResponseObject): Promise<ExecutionResult> {
    for (const field of root.fields) {
      const alone: SelectionPlan = { type: root.type, fields: [field] };
      this.#fill(alone, [data], [undefined], [undefined]);
      await this.#settle();
      if (!this.#forbiddenNull) continue;
      this.#forbiddenNull = false;
      if (withoutForbiddenNulls(alone, data) === null) return this.#result(null);
    }
    return this.#result(data);
  }

  /** Awaits every piece of work deferred so far, and what those add while they settle. */
  async #settle(): Promise<void> {
    for (; this.#settled < this.#pending.length; this.#settled++) await this.#pending[this.#settled];
  }

  #result(data: ResponseObject | null): ExecutionResult {
    return this.#errors.length > 0 ? { errors: reportedErrors(this.options.owned.root, inResponseOrder(this.options.owned.root, this.#errors)), data } : { data };
  }

  /** The response objects of `documents` (a non-object document is read as one without fields). */
  #objects(plan: SelectionPlan, documents: readonly unknown[], paths: ReadonlyArray<ResponsePath | undefined>): ResponseObject[] {
    const objects: ResponseObject[] = new Array(documents.length);
    for (let index = 0; index < documents.length; index++) objects[index] = {};
    this.#fill(plan, objects, documents, paths);
    return objects;
  }

  /** Sets every field of `plan` on each object, in response order; relation and resolver answers come in when they settle. */
  #fill(plan: SelectionPlan, objects: readonly ResponseObject[], documents: readonly unknown[], paths: ReadonlyArray<ResponsePath | undefined>): void {
    for (const field of plan.fields) {
      switch (field.kind) {
        case 'typename':
          for (const object of objects) object[field.responseKey] = plan.type.name;
          break;
        case 'stored':
          for (let index = 0; index < objects.length; index++) {
            const document = documents[index];
            const value = document !== null && typeof document === 'object' ? (document as ResponseObject)[field.fieldName] : undefined;
            objects[index]![field.responseKey] = value === undefined || value === null ? this.#nullLeaf(field, paths[index]) : this.#leaf(field.type, value, field, paths[index]);
          }
          break;
        case 'resolved':
          this.#resolvedLeaves(field, objects, documents, paths);
          break;
        case 'relation':
          this.#relation(field, objects, documents, paths);
          break;
        default: {
          const never: never = field;
          throw new Error(`unknown field plan ${JSON.stringify(never)}`);
        }
      }
    }
  }

  #resolvedLeaves(field: ResolvedLeaf, objects: readonly ResponseObject[], documents: readonly unknown[], paths: ReadonlyArray<ResponsePath | undefined>): void {
    for (let index = 0; index < objects.length; index++) this.#resolvedLeaf(field, objects[index]!, documents[index], paths[index]);
  }

  #resolvedLeaf(field: ResolvedLeaf, object: ResponseObject, document: unknown, parentPath: ResponsePath | undefined): void {
    const answer = this.#call(field, document, fieldPath(field, parentPath));
    const value = field.handWritten ? settleItems(answer) : answer;
    if (isPromise(value)) {
      object[field.responseKey] = null;
      this.#defer(value.then((resolved) => (object[field.responseKey] = this.#leaf(field.type, resolved, field, parentPath)), (error: unknown) => (object[field.responseKey] = this.#leaf(field.type, asError(error), field, parentPath))));
    } else {
      object[field.responseKey] = this.#leaf(field.type, value, field, parentPath);
    }
  }

  /** One relation of every parent: its resolver per parent (their loads go out in one tick), then the next level. */
  #relation(field: RelationPlan, objects: readonly ResponseObject[], documents: readonly unknown[], paths: ReadonlyArray<ResponsePath | undefined>): void {
    const values: unknown[] = new Array(objects.length);
    const fieldPaths: ResponsePath[] = new Array(objects.length);
    const ready: number[] = [];
    const waiting: number[] = [];
    for (let index = 0; index < objects.length; index++) {
      const path = fieldPath(field, paths[index]);
      fieldPaths[index] = path;
      const answer = this.#call(field, documents[index], path);
      const value = field.handWritten ? settleItems(answer) : answer;
      values[index] = value;
      objects[index]![field.responseKey] = null;
      (isPromise(value) ? waiting : ready).push(index);
    }
    if (ready.length > 0) this.#place(field, ready, objects, values, fieldPaths);
    if (waiting.length === 0) return;
    const settled = waiting.map((index) => (values[index] as Promise<unknown>).then(undefined, asError));
    this.#defer(
      Promise.all(settled).then((resolved) => {
        for (let at = 0; at < waiting.length; at++) values[waiting[at]!] = resolved[at];
        this.#place(field, waiting, objects, values, fieldPaths);
      }),
    );
  }

  /** Work that finishes later; `run` awaits it in turn. A failure here is a bug: the run rejects with it, and it counts as handled until then. */
  #defer(work: Promise<unknown>): void {
    work.catch(() => undefined);
    this.#pending.push(work);
  }

  /** Shapes each parent's value by the field's type, then builds the documents' objects and puts them in place. */
  #place(field: RelationPlan, indexes: readonly number[], objects: readonly ResponseObject[], values: readonly unknown[], fieldPaths: readonly ResponsePath[]): void {
    const documents: unknown[] = [];
    const documentPaths: ResponsePath[] = [];
    const stopped = this.#stopped();
    for (const index of indexes) objects[index]![field.responseKey] = this.#shape(field.type, stopped ?? values[index], field, fieldPaths[index]!, documents, documentPaths);
    if (documents.length === 0) return;
    const built = this.#objects(field.child, documents, documentPaths);
    let next = 0;
    const put = (value: unknown): unknown => {
      if (value === AWAITED) return built[next++];
      if (Array.isArray(value)) for (let item = 0; item < value.length; item++) value[item] = put(value[item]);
      return value;
    };
    for (const index of indexes) objects[index]![field.responseKey] = put(objects[index]![field.responseKey]);
  }

  /** A relation's value as its type shapes it: lists as arrays, each object AWAITED (its document and path queued). */
  #shape(type: GraphQLOutputType, value: unknown, field: RelationPlan, path: ResponsePath, documents: unknown[], paths: ResponsePath[]): unknown {
    const nonNull = isNonNullType(type);
    const inner = nonNull ? type.ofType : type;
    if (value instanceof Error) return this.#fail(value, field, path, nonNull);
    if (value === null || value === undefined) return nonNull ? this.#fail(new Error(nullMessage(field)), field, path, true) : null;
    if (isListType(inner)) {
      if (!isIterable(value)) return this.#fail(new Error(notIterableMessage(field)), field, path, nonNull);
      if (!Array.isArray(value)) return [...value].map((item, index) => this.#shape(inner.ofType, item, field, { prev: path, key: index, typename: undefined }, documents, paths));
      const list: unknown[] = new Array(value.length);
      for (let index = 0; index < value.length; index++) list[index] = this.#shape(inner.ofType, value[index], field, { prev: path, key: index, typename: undefined }, documents, paths);
      return list;
    }
    documents.push(value);
    paths.push(path);
    return AWAITED;
  }

  /**
   * A leaf's value as the response holds it: serialized by its type; null with an error where it cannot
   * be. `itemPath` is a list item's; a field's own path is only built for an error.
   */
  #leaf(type: GraphQLOutputType, value: unknown, field: LeafPlan, parentPath: ResponsePath | undefined, itemPath?: ResponsePath): unknown {
    const nonNull = isNonNullType(type);
    const inner = nonNull ? type.ofType : type;
    if (value instanceof Error) return this.#fail(value, field, itemPath ?? fieldPath(field, parentPath), nonNull);
    if (value === null || value === undefined) return nonNull ? this.#fail(new Error(nullMessage(field)), field, itemPath ?? fieldPath(field, parentPath), true) : null;
    if (isListType(inner)) {
      const path = itemPath ?? fieldPath(field, parentPath);
      if (!isIterable(value)) return this.#fail(new Error(notIterableMessage(field)), field, path, nonNull);
      // A resolver's list is its resolver's to count (docjoin's counts it; a hand-written one's is not counted).
      const refused = field.kind === 'stored' && Array.isArray(value) ? this.#countList(inner, value) : undefined;
      if (refused) return this.#fail(refused, field, path, nonNull);
      const list: unknown[] = [];
      for (const item of value) list.push(this.#leaf(inner.ofType, item, field, parentPath, { prev: path, key: list.length, typename: undefined }));
      return list;
    }
    try {
      const serialized = (inner as GraphQLLeafType).serialize(value);
      if (serialized === undefined || serialized === null) throw new Error(`Expected \`${String(inner)}.serialize(${describe(value)})\` to return non-nullable value, returned: ${describe(serialized)}`);
      return serialized;
    } catch (error) {
      return this.#fail(asError(error), field, itemPath ?? fieldPath(field, parentPath), nonNull);
    }
  }

  /** Why a query must stop building its answer (stoppedBy); a mutation's answer is built whole. */
  #stopped(): Error | undefined {
    return this.options.owned.operation.operation === 'query' ? this.options.stoppedBy?.() : undefined;
  }

  /**
   * Counts a list of leaves toward the response's size (countLeafList): the error that stops the
   * operation, or undefined. A query already stopped (its time is up) builds no further list: its
   * answer is that one error, and a list may hold thousands of entries.
   */
  #countList(type: GraphQLOutputType, list: readonly unknown[]): Error | undefined {
    const stopped = this.#stopped();
    if (stopped) return stopped;
    try {
      this.options.countLeafList?.(type, list);
      return undefined;
    } catch (error) {
      return asError(error);
    }
  }

  /** A stored leaf without a value: null, or the non-null field's error. */
  #nullLeaf(field: StoredLeaf, parentPath: ResponsePath | undefined): unknown {
    return isNonNullType(field.type) ? this.#fail(new Error(nullMessage(field)), field, fieldPath(field, parentPath), true) : null;
  }

  #fail(error: Error, field: SchemaFieldPlan, path: ResponsePath, nonNull: boolean): null {
    this.#errors.push(locatedError(error, field.fieldNodes, responsePathAsArray(path)));
    if (nonNull) this.#forbiddenNull = true;
    return null;
  }

  #call(field: RelationPlan | ResolvedLeaf, parent: unknown, path: ResponsePath): unknown {
    try {
      return field.resolve(parent, this.#argsOf(field), this.options.contextValue, new ResolveInfoAt(this.#infoOf(field), path));
    } catch (error) {
      return asError(error);
    }
  }

  /** The field's resolve info, less the path (each parent's own). */
  #infoOf(field: RelationPlan | ResolvedLeaf): GraphQLResolveInfo {
    let info = this.#infos.get(field);
    if (!info) {
      const { schema, owned, variableValues } = this.options;
      info = {
        fieldName: field.fieldName,
        fieldNodes: field.fieldNodes,
        returnType: field.type,
        parentType: field.parentType,
        path: { prev: undefined, key: field.responseKey, typename: field.parentType.name },
        schema,
        fragments: owned.fragments,
        rootValue: undefined,
        operation: owned.operation,
        variableValues: variableValues as Record<string, unknown>,
      };
      this.#infos.set(field, info);
    }
    return info;
  }

  /** The field's arguments, coerced as graphql-js coerces them: the same for every parent. */
  #argsOf(field: RelationPlan | ResolvedLeaf): Record<string, unknown> {
    let args = this.#args.get(field);
    if (!args) this.#args.set(field, (args = getArgumentValues(field.definition, field.fieldNodes[0]!, this.options.variableValues as Record<string, unknown>)));
    return args;
  }
}

/** A field's resolve info at one parent's path: one object shape for every call. */
class ResolveInfoAt implements GraphQLResolveInfo {
  readonly fieldName: string;
  readonly fieldNodes: GraphQLResolveInfo['fieldNodes'];
  readonly returnType: GraphQLResolveInfo['returnType'];
  readonly parentType: GraphQLResolveInfo['parentType'];
  readonly schema: GraphQLSchema;
  readonly fragments: GraphQLResolveInfo['fragments'];
  readonly rootValue: unknown;
  readonly operation: GraphQLResolveInfo['operation'];
  readonly variableValues: GraphQLResolveInfo['variableValues'];

  constructor(
    field: GraphQLResolveInfo,
    readonly path: ResponsePath,
  ) {
    this.fieldName = field.fieldName;
    this.fieldNodes = field.fieldNodes;
    this.returnType = field.returnType;
    this.parentType = field.parentType;
    this.schema = field.schema;
    this.fragments = field.fragments;
    this.rootValue = field.rootValue;
    this.operation = field.operation;
    this.variableValues = field.variableValues;
  }
}

function fieldPath(field: { readonly responseKey: string; readonly parentType: { readonly name: string } }, parentPath: ResponsePath | undefined): ResponsePath {
  return { prev: parentPath, key: field.responseKey, typename: field.parentType.name };
}

/**
 * The response with each null the type forbids handed up to the nearest nullable parent (graphql-js's
 * null propagation), done once everything has settled: the errors were recorded where they happened.
 */
function withoutForbiddenNulls(root: SelectionPlan, data: ResponseObject): ResponseObject | null {
  const objectOrNull = (plan: SelectionPlan, object: ResponseObject): ResponseObject | null => {
    for (const field of plan.fields) {
      if (field.kind === 'typename') continue;
      const value = valueOrNull(field.type, object[field.responseKey], field.kind === 'relation' ? field.child : undefined);
      object[field.responseKey] = value;
      if (value === null && isNonNullType(field.type)) return null;
    }
    return object;
  };
  const valueOrNull = (type: GraphQLOutputType, value: unknown, child: SelectionPlan | undefined): unknown => {
    if (value === null || value === undefined) return null;
    const inner = isNonNullType(type) ? type.ofType : type;
    if (isListType(inner)) {
      const list = value as unknown[];
      for (let index = 0; index < list.length; index++) {
        const item = valueOrNull(inner.ofType, list[index], child);
        if (item === null && isNonNullType(inner.ofType)) return null;
        list[index] = item;
      }
      return list;
    }
    return child ? objectOrNull(child, value as ResponseObject) : value;
  };
  return objectOrNull(root, data);
}

type PathSegment = string | number;

/**
 * The errors graphql-js reports of those that happened, in order: it records each where its null lands
 * (the nearest nullable position at or above it; the whole `data` when none is), and leaves out an
 * error whose landing position, or a position above it, already holds an earlier error's null
 * (graphql-js 16.15's CollectedErrors).
 */
function reportedErrors(root: SelectionPlan, errors: readonly GraphQLError[]): GraphQLError[] {
  const nulled = new Set<string>();
  const reported: GraphQLError[] = [];
  for (const error of errors) {
    const landing = landingPosition(root, error.path ?? []);
    let under = nulled.has('');
    for (let length = landing.length; !under && length > 0; length--) under = nulled.has(positionKey(landing, length));
    if (under) continue;
    nulled.add(positionKey(landing, landing.length));
    reported.push(error);
  }
  return reported;
}

/** Where the null of an error at `path` lands: up from it while the type there forbids null. */
function landingPosition(root: SelectionPlan, path: readonly PathSegment[]): readonly PathSegment[] {
  const types: GraphQLOutputType[] = [];
  let selection: SelectionPlan | undefined = root;
  let type: GraphQLOutputType | undefined;
  for (const segment of path) {
    if (typeof segment === 'number') {
      const list = type && (isNonNullType(type) ? type.ofType : type);
      type = list && isListType(list) ? (list.ofType as GraphQLOutputType) : undefined;
    } else {
      const field: SchemaFieldPlan | undefined = selection?.fields.find((candidate): candidate is SchemaFieldPlan => candidate.kind !== 'typename' && candidate.responseKey === segment);
      type = field?.type;
      selection = field?.kind === 'relation' ? field.child : undefined;
    }
    if (!type) return path;
    types.push(type);
  }
  let length = path.length;
  while (length > 0 && isNonNullType(types[length - 1])) length--;
  return path.slice(0, length);
}

/**
 * The errors by where they stand in the response, depth first, whenever each was met: where several
 * null one position, the one kept (reportedErrors) is then the first in the response, whichever
 * strategy read each field and whichever answer came back first (graphql-js keeps the first to settle).
 */
function inResponseOrder(root: SelectionPlan, errors: readonly GraphQLError[]): GraphQLError[] {
  return errors
    .map((error) => ({ error, order: responseOrder(root, error.path ?? []) }))
    .sort((a, b) => compareOrders(a.order, b.order))
    .map(({ error }) => error);
}

/** Where `path` comes in the response, depth first: per segment, a list index, or the field's place in its selection. */
function responseOrder(root: SelectionPlan, path: readonly PathSegment[]): number[] {
  const order: number[] = [];
  let selection: SelectionPlan | undefined = root;
  for (const segment of path) {
    if (typeof segment === 'number') {
      order.push(segment);
      continue;
    }
    const place: number = selection?.fields.findIndex((field) => field.responseKey === segment) ?? -1;
    const field: FieldPlan | undefined = selection?.fields[place];
    order.push(place);
    selection = field?.kind === 'relation' ? field.child : undefined;
  }
  return order;
}

function compareOrders(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) if (a[index] !== b[index]) return a[index]! - b[index]!;
  return a.length - b.length;
}

function positionKey(path: readonly PathSegment[], length: number): string {
  let key = '';
  for (let index = 0; index < length; index++) key += `${String(path[index])}\u0000`;
  return key;
}

function nullMessage(field: { readonly parentType: { readonly name: string }; readonly fieldName: string }): string {
  return `Cannot return null for non-nullable field ${field.parentType.name}.${field.fieldName}.`;
}

function notIterableMessage(field: { readonly parentType: { readonly name: string }; readonly fieldName: string }): string {
  return `Expected Iterable, but did not find one for field "${field.parentType.name}.${field.fieldName}".`;
}

/**
 * A hand-written resolver's answer with the promises in its lists settled, as graphql-js awaits each
 * item: a rejected item becomes that item's error. Lists without a promise are returned as they are.
 */
function settleItems(value: unknown): unknown {
  if (isPromise(value)) return value.then(settleItems);
  if (!Array.isArray(value) || !value.some((item) => isPromise(item) || Array.isArray(item))) return value;
  const items = value.map((item) => (isPromise(item) ? item.then(settleItems, asError) : settleItems(item)));
  return items.some(isPromise) ? Promise.all(items) : items;
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(`Unexpected error value: ${describe(error)}`);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
