import { getNamedType, getVariableValues, GraphQLBoolean, typeFromAST, type DocumentNode, type GraphQLResolveInfo, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { StrategyOverrides } from './strategy-overrides';
import type { Ownership } from './owned-plan';
import { planOperation, fragmentsOf, type OperationPlan } from './operation-plan';
import type { SelectionStep } from './selection-tree';

/** Plans kept at most; the least recently used goes first. */
export const MAX_CACHED_PLANS = 1_000;

/**
 * What the cached plans may weigh together, in bytes as planWeight estimates them: a client that sends
 * large operations, each in many variants (the values of its Boolean variables), evicts older plans
 * instead of growing the heap. One plan may take an eighth of it; a heavier one is planned each time.
 */
export const MAX_CACHED_PLAN_BYTES = 64 * 1024 * 1024;

/** Bytes a plan holds per field step of its tree, and per character of its operation's text (the parsed nodes it keeps), as measured on large plans. */
const BYTES_PER_FIELD_STEP = 640;
const BYTES_PER_SOURCE_CHARACTER = 50;

/** What a request has once its operation is resolved: its plan, and its variables coerced (once). */
export interface PreparedRequest {
  readonly plan: OperationPlan;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** The parts of Apollo's request context (from didResolveOperation on) that planning reads. */
export interface ResolvedRequest {
  readonly document: DocumentNode;
  readonly operation?: OperationDefinitionNode | undefined;
  readonly operationName: string | null;
  /** Apollo's hash of the query text: with the operation name, it names the document (unset: not cached). */
  readonly queryHash?: string | undefined;
  readonly request: { readonly variables?: Readonly<Record<string, unknown>> };
  /** The request's context: its overrides, and its ledger, which Apollo's shallow copy of the context shares (planOf). */
  readonly contextValue: { readonly overrides: StrategyOverrides; readonly ledger: object };
}

const NO_VARIABLES: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Prepares each request once, whichever of docjoin's plugins asks first (the estimate before
 * execution, then the executor): its variables coerced as graphql-js coerces them, and its operation's
 * plan, from a bounded LRU cache keyed by the query's hash, the operation name, the strategy overrides
 * and the values of the operation's Boolean variables (what `@skip` / `@include` read).
 */
export class OperationPlanner {
  readonly #plans: LRUCache<string, OperationPlan>;
  readonly #prepared = new WeakMap<object, PreparedRequest | null>();
  /** Each prepared request's plan by its ledger: where the request's resolvers find it. */
  readonly #byRequest = new WeakMap<object, OperationPlan>();
  readonly #onLookup: (hit: boolean) => void;

  /** `maxPlans`, `maxBytes`: the cache's bounds (default MAX_CACHED_PLANS, MAX_CACHED_PLAN_BYTES); `onLookup`: told of each hit or miss (metrics). */
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly ownership: Ownership,
    options: { readonly maxPlans?: number; readonly maxBytes?: number; readonly onLookup?: (hit: boolean) => void } = {},
  ) {
    const maxSize = options.maxBytes ?? MAX_CACHED_PLAN_BYTES;
    this.#plans = new LRUCache({ max: options.maxPlans ?? MAX_CACHED_PLANS, maxSize, maxEntrySize: Math.max(1, Math.floor(maxSize / 8)), sizeCalculation: planWeight });
    this.#onLookup = options.onLookup ?? (() => undefined);
  }

  /** Plans in the cache now. */
  get size(): number {
    return this.#plans.size;
  }

  /** The request's plan and variables; null when no operation was resolved or its variables do not coerce (Apollo refuses those). */
  prepare(request: ResolvedRequest): PreparedRequest | null {
    const known = this.#prepared.get(request);
    if (known !== undefined) return known;
    const prepared = this.#prepare(request);
    this.#prepared.set(request, prepared);
    return prepared;
  }

  #prepare({ document, operation, operationName, queryHash, request, contextValue }: ResolvedRequest): PreparedRequest | null {
    if (!operation) return null;
    const variables = coerceVariables(this.schema, operation, request.variables);
    if (!variables) return null;
    const build = () => planOperation(this.schema, operation, fragmentsOf(document), variables, this.ownership);
    let plan: OperationPlan | undefined;
    if (queryHash === undefined) plan = build();
    else {
      const key = `${queryHash}\0${operationName ?? ''}\0${this.#variantOf(operation, variables, contextValue.overrides)}`;
      plan = this.#plans.get(key);
      // A plan of another parse of the same text (Apollo's document cache evicted it, or is off) plans the
      // same, but resolvers find their steps by the nodes of the document they run.
      const cached = plan !== undefined && plan.operation === operation;
      this.#onLookup(cached);
      if (!cached) {
        plan = build();
        // One too large to plan is refused (or run by graphql-js) as soon as it is built: keeping it would keep its whole document.
        if (plan.root) this.#plans.set(key, plan);
      }
    }
    this.#byRequest.set(contextValue.ledger, plan!);
    return { plan: plan!, variables };
  }

  /**
   * The plan of the operation a resolver runs in, for the request whose context holds `ledger` (Apollo
   * runs a request on a shallow copy of the context it was given, so the context object itself differs;
   * its ledger does not): the one prepared for it, else one made now and not kept (an operation executed
   * without Apollo, or without a plugin that prepares it: the request context keeps it for its own
   * resolvers). `info.variableValues` are coerced already.
   */
  planOf(info: Pick<GraphQLResolveInfo, 'operation' | 'fragments' | 'variableValues'>, ledger: object): OperationPlan {
    const prepared = this.#byRequest.get(ledger);
    if (prepared?.operation === info.operation) return prepared;
    return planOperation(this.schema, info.operation, info.fragments, info.variableValues, this.ownership);
  }

  /** What, besides the document, shapes a plan: the strategy overrides and the Boolean variables' values. */
  #variantOf(operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>>, overrides: StrategyOverrides): string {
    return `${overridesKey(overrides)}\0${this.#booleanValues(operation, variables)}`;
  }

  /** The values of the operation's Boolean variables, in their order: all that can change the plan's shape. */
  #booleanValues(operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>>): string {
    let key = '';
    for (const definition of operation.variableDefinitions ?? []) {
      const type = typeFromAST(this.schema, definition.type);
      if (!type || getNamedType(type) !== GraphQLBoolean) continue;
      const name = definition.variable.name.value;
      key += Object.hasOwn(variables, name) ? `${String(variables[name])},` : 'absent,';
    }
    return key;
  }
}

/** The operation's variables coerced as graphql-js coerces them; undefined when they don't coerce. */
export function coerceVariables(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, unknown>> | undefined {
  // An operation without variables reads none of those sent.
  if (!operation.variableDefinitions?.length) return NO_VARIABLES;
  return getVariableValues(schema, operation.variableDefinitions, variables ?? {}, { maxErrors: 1 }).coerced;
}

function overridesKey(overrides: StrategyOverrides): string {
  if (overrides.size === 0) return '';
  return [...overrides].map(([coordinate, strategy]) => `${coordinate}=${strategy}`).sort().join(',');
}

/** What a plan keeps in memory, roughly: its tree's field steps and its operation's parsed nodes. */
export function planWeight(plan: OperationPlan): number {
  let characters = 0;
  for (const node of [plan.operation, ...Object.values(plan.fragments)]) characters += node.loc ? node.loc.end - node.loc.start : 0;
  return Math.max(1, fieldStepsOf(plan.root) * BYTES_PER_FIELD_STEP + characters * BYTES_PER_SOURCE_CHARACTER);
}

function fieldStepsOf(selection: SelectionStep | undefined): number {
  let steps = 0;
  for (const field of selection?.fields ?? []) {
    steps += 1;
    for (const child of field.children) steps += fieldStepsOf(child);
  }
  return steps;
}
