import { getArgumentValues, getNamedType, getNullableType, isCompositeType, isLeafType, isListType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import { InvariantError } from '../../errors/internal-errors';
import type { OperationPlan } from '../plan/operation-plan';
import { connectionSteps, MAX_FIELD_STEPS, selectedFieldNamesOf, type FieldStep, type SelectionStep } from '../plan/selection-tree';
import { planConnectionPage, type ConnectionArgs } from '../planning/connection-page';
import { validateFirst, type PageArgs } from '../planning/page-request';
import { planReverseJoinPage } from '../planning/reverse-join-page';
import { planLookup } from '../planning/lookup-read';
import { copiesServe, requestedList, strategyForRequest } from '../planning/requested-list';
import { reverseJoinSpecKey, UNBOUNDED_REVERSE_JOIN_BATCH, type CounterCount, type CountSpec } from '../planning/batch-specs';
import { listSort, readsByLookup, type AggregateField, type JoinShape, type ListRootField, type ReadStrategy, type RelationField, type StorageMap } from '../../startup/storage-map/storage-map-types';
import { add, joinBatch, memberScopes, mul, roundTripsOf, SATURATED, type FreeFigures, type QueryGroup, type Scope, type StepRead, type StrategyChoice } from './scope-reads';
import { WhatIfTally } from './what-ifs';
import { objectJsonBytes } from '../plan/response-bytes';
import { aggregateParts, asksNothing, planAggregateRequest, storedFigureCoordinates, storedFigurePaths, type AggregateRequest, type StoredFigurePaths } from '../planning/aggregate-request';
import type { TotalSum } from '../planning/total-sum';
import { aggregateTypeNames, DEFAULT_GROUPS, MAX_GROUPS } from '../../startup/aggregates/aggregate-names';

export interface EstimateInput {
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  /** The operation's plan (plan/operation-plan.ts): the selection tree the estimate reads, and the depth. */
  readonly plan: Pick<OperationPlan, 'operation' | 'root' | 'depth'>;
  /** Coerced variable values (graphql's getVariableValues): what the arguments read. */
  readonly variableValues: Readonly<Record<string, unknown>>;
  /** The strategy this request reads each relation with (default or overridden). */
  strategyFor(field: RelationField): ReadStrategy;
  /** Entries assumed in a list nothing bounds (reference arrays, embedded arrays without `first`). Default 20 (like `first`). */
  readonly assumedListSize?: number;
  /** The most documents of a collection one batch can return (collection-sizes.ts); undefined: no bound known. */
  collectionSize?(collection: string): number | undefined;
  /** The most entries a list field read from its parent's array holds (collection-sizes.ts); undefined: assumedListSize. */
  listLength?(coordinate: string): number | undefined;
  /** The average JSON bytes of the stored field `Type.field`'s value (collection-sizes.ts); undefined: ASSUMED_VALUE_BYTES. */
  valueBytes?(typeName: string, fieldName: string): number | undefined;
  /**
   * Whether the copy of the relation `coordinate` is being backfilled (copy-backfills.ts): some snapshot
   * copies may lack fields it declares, or some parents its embedded copy; the resolver joins those.
   * Undefined: none is.
   */
  copyBackfilling?(coordinate: string): boolean;
  /** The `@counter` fields by coordinate, with the count each stands for (counted while backfilled). */
  readonly counters?: ReadonlyMap<string, CounterCount>;
  /** The `@total` fields by coordinate, with the sum each stands for (summed while backfilled). */
  readonly totals?: ReadonlyMap<string, TotalSum>;
  /**
   * Whether this request reads every row of `collection` (no access rule narrows it): only then does a
   * `@counter` answer an aggregate's count. Undefined: every row (a schema without access rules).
   */
  readsEveryRow?(collection: string): boolean;
  /**
   * Mutations: the most one attempt of a Mutation field's write unit sends, and the documents its reads
   * return (writes/estimate-write-unit.ts, from the field's write plan). Required to estimate a mutation.
   */
  writeEstimate?(mutationField: string): WriteBound | undefined;
  /** Also work out each relation field's what-ifs (StepFigures.whatIfs): only `docjoin explain` asks. */
  readonly whatIfs?: boolean;
}

/** What a mutation field's write unit adds to the estimate, before its selection is read back. */
export interface WriteBound {
  readonly roundTrips: number;
  readonly documents: number;
}

/** What a leaf value nothing measured is taken to cost in the response (a short string, a number). */
export const ASSUMED_VALUE_BYTES = 16;

/** Upper bounds, computed before anything is sent to MongoDB. */
export interface CostEstimate {
  readonly roundTrips: number;
  /** An upper bound provided no unbounded list holds more than `assumedListSize` entries. */
  readonly documents: number;
  readonly depth: number;
  /**
   * The objects the response can hold (each list item and each object, a document met under several
   * parents once per parent): what assembling and sending it costs, whatever the loaders read once.
   * Introspection and leaf values are not counted.
   */
  readonly responseNodes: number;
  /**
   * The approximate bytes of those objects as JSON: per object, its response keys, and each leaf's
   * average size measured in its collection (ASSUMED_VALUE_BYTES where nothing was measured). An
   * approximation from averages, not a bound; the serialized size is checked after execution.
   */
  readonly responseBytes: number;
  /** The field that accounts for the most of each measure (what a rejection names). */
  readonly heaviest?: { readonly roundTrips: FieldShare | undefined; readonly documents: FieldShare | undefined; readonly responseNodes: FieldShare | undefined };
}

/** What one `Type.field` adds to an estimate. */
export interface FieldShare {
  readonly coordinate: string;
  readonly amount: number;
  /** Whether the field takes a `first` argument (the advice a rejection can give). */
  readonly takesFirst: boolean;
  /** In how many places the operation selects it (aliases, repeated levels): whether selecting it in fewer would help. */
  readonly places: number;
}

export const DEFAULT_ASSUMED_LIST_SIZE = 20;
/**
 * Field steps the estimate visits before it gives up and saturates. A tree holds at most MAX_FIELD_STEPS,
 * each visited once, except below a copy being backfilled, which is read both ways (its copies and its
 * join): nested backfilled fields would double the walk at every level.
 */
const VISIT_BUDGET = 2 * MAX_FIELD_STEPS;

/**
 * The static cost estimate of one operation, read from its plan's selection tree: see README.md in this
 * folder for the model. In short, a loader resolves every load of one moment (the microtask drain in
 * which parents appear) at one time, so each level's objects arrive together, and a query-reading field
 * costs one command per loader and level; siblings sharing a loader share it. An operation too large to
 * plan (or to walk) saturates its round trips and documents.
 */
export function estimateOperation(input: EstimateInput): CostEstimate {
  return estimateByField(input).estimate;
}

/** What each `Type.field` of the plan adds to an estimate (a batch shared by siblings counts for the first). */
export type FieldFigures = ReadonlyMap<string, { readonly roundTrips: number; readonly documents: number }>;

/** How one step of the plan is read for this request, and what it adds to the estimate. */
export interface StepFigures {
  /** The MongoDB command that reads it (`find {authorId: {$in: keys}} on books`), or how it is read without one. */
  readonly read: string;
  /** The loader key of the batch it shares with the other reads of its level; undefined when it sends nothing or alone. */
  readonly batch: string | undefined;
  /** The steps before it in that batch: its round trips count for the first of them. */
  readonly sharesWith: string | undefined;
  readonly roundTrips: number;
  readonly documents: number;
  /** Why it sends nothing: the BAD_USER_INPUT its resolver answers for these arguments (`first must be between 0 and 100, got 500`). */
  readonly rejected?: string;
  /**
   * With EstimateInput.whatIfs, on the first step of a relation field in each scope that reads it: for
   * every other strategy the field declares, the round trips the operation gains (or, negative, saves)
   * with the field read that way in this scope and below it (what-ifs.ts).
   */
  readonly whatIfs?: ReadonlyMap<ReadStrategy, number>;
}

/** The estimate, and the figures it adds up: per field (explain's table) and per plan step (explain --plan). */
export interface EstimateFigures {
  readonly estimate: CostEstimate;
  readonly byField: FieldFigures;
  readonly bySteps: ReadonlyMap<FieldStep, StepFigures>;
  /**
   * With EstimateInput.whatIfs: per relation field, for every other strategy it declares, the
   * operation's round trips with the field read that way (SATURATED when the estimate is).
   */
  readonly alternatives: ReadonlyMap<string, ReadonlyMap<ReadStrategy, number>>;
}

export function estimateByField(input: EstimateInput): EstimateFigures {
  const { root, depth } = input.plan;
  if (!root) return { estimate: { roundTrips: SATURATED, documents: SATURATED, depth, responseNodes: SATURATED, responseBytes: SATURATED }, byField: new Map(), bySteps: new Map(), alternatives: new Map() };
  const pass = new EstimatePass(input);
  const { roundTrips, documents, responseNodes, responseBytes, heaviest } = pass.run(root);
  const alternatives = new Map<string, ReadonlyMap<ReadStrategy, number>>();
  for (const [coordinate, whatIfs] of pass.whatIfTally?.byCoordinate ?? []) {
    alternatives.set(coordinate, new Map([...whatIfs].map(([strategy, change]) => [strategy, add(roundTrips, change)])));
  }
  return { estimate: { roundTrips, documents, depth, responseNodes, responseBytes, heaviest }, byField: pass.shares, bySteps: pass.steps, alternatives };
}

class EstimatePass {
  #roundTrips = 0;
  #documents = 0;
  #responseNodes = 0;
  #responseBytes = 0;
  /** The JSON bytes of one object of each selection, its leaves included. */
  readonly #objectBytes = new Map<SelectionStep, number>();
  /** Response nodes by the field whose values they are. */
  readonly #nodeShares = new Map<string, number>();
  #visits = 0;
  readonly shares = new Map<string, { roundTrips: number; documents: number }>();
  readonly steps = new Map<FieldStep, StepFigures>();
  readonly #listSize: number;
  /** The `TAggregate` types the `@aggregate` fields return (their `groupBy` lists `first` groups). */
  readonly #aggregateTypes: ReadonlySet<string>;
  /** Tallied when the input asks for what-ifs. */
  readonly whatIfTally: WhatIfTally | undefined;

  constructor(private readonly input: EstimateInput) {
    this.#listSize = input.assumedListSize ?? DEFAULT_ASSUMED_LIST_SIZE;
    this.#aggregateTypes = new Set([...input.storageMap.aggregates.values()].map((aggregate) => aggregateTypeNames(aggregate.targetType).aggregate));
    this.whatIfTally = input.whatIfs
      ? new WhatIfTally({
          strategyFor: input.strategyFor,
          relationOf: (step) => this.#relationOf(step),
          reads: (scope, step, strategyFor) => this.#reads(scope, step, strategyFor),
          sideRoundTrips: (scopes, strategyFor) => new EstimatePass({ ...input, strategyFor, whatIfs: false }).subtreeRoundTrips(scopes),
        })
      : undefined;
  }

  run(root: SelectionStep): Omit<CostEstimate, 'depth' | 'heaviest'> & { heaviest: NonNullable<CostEstimate['heaviest']> } {
    for (const scope of this.#rootScopes(root)) this.#visit(scope);
    for (const [step, whatIfs] of this.whatIfTally?.byStep ?? []) {
      const figures = this.steps.get(step);
      if (figures) this.steps.set(step, { ...figures, whatIfs });
    }
    const heaviest = { roundTrips: this.#heaviest('roundTrips'), documents: this.#heaviest('documents'), responseNodes: this.#heaviestNodes() };
    if (this.#visits > VISIT_BUDGET) return { roundTrips: SATURATED, documents: SATURATED, responseNodes: SATURATED, responseBytes: SATURATED, heaviest };
    return { roundTrips: this.#roundTrips, documents: this.#documents, responseNodes: this.#responseNodes, responseBytes: this.#responseBytes, heaviest };
  }

  /** The objects `step`'s values make in the response: the scopes below it (one per connection selection counts its nodes each). */
  #countNodes(step: FieldStep, scopes: readonly Scope[]): void {
    let nodes = 0;
    for (const scope of scopes) {
      nodes = add(nodes, scope.objects);
      this.#responseBytes = add(this.#responseBytes, mul(scope.objects, Math.max(0, ...scope.selections.map((selection) => this.#bytesOfObject(selection)))));
    }
    if (nodes === 0) return;
    this.#responseNodes = add(this.#responseNodes, nodes);
    this.#nodeShares.set(step.coordinate, add(this.#nodeShares.get(step.coordinate) ?? 0, nodes));
  }

  /** One object of `selection` as JSON: braces, and per response key its name and, for a leaf, its value. */
  #bytesOfObject(selection: SelectionStep): number {
    let bytes = this.#objectBytes.get(selection);
    if (bytes !== undefined) return bytes;
    // The value of an object or list of objects is counted with its own scope.
    bytes = objectJsonBytes(selection, (field) => {
      if (field.fieldName === '__typename') return selection.type.name.length + 2;
      return field.definition && isLeafType(getNamedType(field.definition.type)) ? (this.input.valueBytes?.(selection.type.name, field.fieldName) ?? ASSUMED_VALUE_BYTES) : 0;
    });
    this.#objectBytes.set(selection, bytes);
    return bytes;
  }

  #heaviestNodes(): FieldShare | undefined {
    return this.#largest(this.#nodeShares);
  }

  /** The round trips `scopes` send, on their own (SATURATED past the visit budget). */
  subtreeRoundTrips(scopes: readonly Scope[]): number {
    for (const scope of scopes) this.#visit(scope);
    return this.#visits > VISIT_BUDGET ? SATURATED : this.#roundTrips;
  }

  /**
   * Adds what `step` sends to the totals and to its field's share of them, and records how it is read.
   * A step met again (under another parent type) adds up; one read two ways (a connection's page and its
   * count, a copy being backfilled and its join) lists both.
   */
  #account(step: FieldStep, figures: StepFigures): void {
    this.#roundTrips = add(this.#roundTrips, figures.roundTrips);
    this.#documents = add(this.#documents, figures.documents);
    const share = this.shares.get(step.coordinate) ?? { roundTrips: 0, documents: 0 };
    this.shares.set(step.coordinate, { roundTrips: add(share.roundTrips, figures.roundTrips), documents: add(share.documents, figures.documents) });
    const seen = this.steps.get(step);
    if (!seen) {
      this.steps.set(step, figures);
      return;
    }
    const also = (a: string | undefined, b: string | undefined) => (a === undefined || b === undefined || a === b ? (a ?? b) : `${a}, and ${b}`);
    this.steps.set(step, {
      read: also(seen.read, figures.read)!,
      batch: also(seen.batch, figures.batch),
      sharesWith: seen.sharesWith !== undefined && figures.sharesWith !== undefined ? seen.sharesWith : undefined,
      roundTrips: add(seen.roundTrips, figures.roundTrips),
      documents: add(seen.documents, figures.documents),
      ...((seen.rejected ?? figures.rejected) !== undefined && { rejected: seen.rejected ?? figures.rejected }),
    });
  }

  #heaviest(measure: 'roundTrips' | 'documents'): FieldShare | undefined {
    return this.#largest([...this.shares].map(([coordinate, share]) => [coordinate, share[measure]] as const));
  }

  /** The field with the largest amount (the first of equals), described once it is found. */
  #largest(amounts: Iterable<readonly [string, number]>): FieldShare | undefined {
    let largest: readonly [string, number] | undefined;
    for (const entry of amounts) if (entry[1] > (largest?.[1] ?? 0)) largest = entry;
    if (!largest) return undefined;
    const [coordinate, amount] = largest;
    let places = 0;
    for (const step of this.steps.keys()) if (step.coordinate === coordinate) places += 1;
    return { coordinate, amount, takesFirst: this.#takesFirst(coordinate), places };
  }

  #takesFirst(coordinate: string): boolean {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const type = this.input.schema.getType(typeName);
    return isObjectType(type) && (type.getFields()[fieldName]?.args.some((argument) => argument.name === 'first') ?? false);
  }

  /**
   * A root field is one find (findOne / findMany); `first: 0` and invalid arguments send nothing. Its
   * result objects are the scopes below it (none when nothing is read).
   */
  #rootField(step: FieldStep): Scope[] {
    const { definition, coordinate } = step;
    if (!definition) return [];
    const aggregate = this.input.storageMap.aggregates.get(coordinate);
    if (aggregate) {
      return this.#aggregate({ selections: [], objects: 1 }, step, aggregate).map((read) => {
        if (read.kind === 'free') {
          this.#account(step, read.figures);
          return read.children;
        }
        this.#account(step, { read: read.batch.read, batch: undefined, sharesWith: undefined, roundTrips: 1, documents: add(this.#aggregateDocuments(aggregate), read.member.moreDocuments ?? 0) });
        return memberScopes(read.member)[0]!;
      });
    }
    const root = this.input.storageMap.roots.get(coordinate);
    if (this.input.storageMap.connections.has(getNamedType(definition.type).name)) return this.#rootConnection(step, definition, root?.kind === 'list' ? root : undefined);
    const isList = isListType(getNullableType(definition.type));
    let objects = 1;
    if (isList) {
      const first = this.#first(step, definition);
      if (first === undefined || first === 0) return [];
      objects = first;
    }
    const mutation = step.parentType === this.input.schema.getMutationType();
    const writes = mutation ? this.#write(step) : undefined;
    // A mutation that answers with a scalar (a deleted id, true) reads nothing back.
    if (writes && isLeafType(getNamedType(definition.type))) {
      this.#account(step, { read: 'its write unit', batch: undefined, sharesWith: undefined, ...writes });
      return [];
    }
    const anchor = isList && this.#readsAnchor(step, definition);
    const command = `${isList ? 'find' : 'findOne'} on ${root?.collection ?? 'what its resolver reads'}${anchor ? ', after a findOne of the `after` item' : ''}`;
    this.#account(step, {
      read: writes ? `its write unit, then a read back: ${command}` : command,
      batch: undefined,
      sharesWith: undefined,
      roundTrips: (writes?.roundTrips ?? 0) + 1 + (anchor ? 1 : 0),
      documents: (writes?.documents ?? 0) + objects + (anchor ? 1 : 0),
    });
    return [{ selections: step.children, objects, parents: root ? 'read' : 'resolver' }];
  }

  /**
   * A root connection (generated by `@list`, or hand-written with documents.findConnection): one find of
   * `first + 1` documents when anything needs the page, one count when totalCount is selected. Its
   * documents are the nodes, under every `edges { node }` and `nodes`.
   */
  #rootConnection(step: FieldStep, definition: GraphQLField<unknown, unknown>, root: ListRootField | undefined): Scope[] {
    let first: number | undefined;
    try {
      const args = this.#argsOf(step, definition);
      first = root ? planConnectionPage(root.coordinate, listSort(root, args) ?? root.sort, args as ConnectionArgs, root.firstDefault).size : validateFirst(args.first as number | null | undefined);
    } catch (error) {
      this.#reject(step, error); // BAD_USER_INPUT (first over the cap, a cursor of another list): nothing is sent
      return [];
    }
    if (first === undefined) return [];
    const selection = connectionSteps(step);
    const collection = root?.collection ?? 'what its resolver reads';
    const commands = [...(selection.page ? [`find of ${first + 1} on ${collection}`] : []), ...(selection.totalCount ? [`countDocuments on ${collection}`] : [])];
    const roundTrips = commands.length;
    this.#account(step, { read: commands.join(', then ') || 'nothing', batch: undefined, sharesWith: undefined, roundTrips, documents: (selection.page ? first + 1 : 0) + (selection.totalCount ? 1 : 0) });
    if (!selection.page) return [];
    // Its nodes are the page's documents, the one read for hasNextPage included (their lookups run for it too), as a relation connection's.
    return selection.nodeSelections.map((selections) => ({ selections, objects: first + 1, parents: root ? ('read' as const) : ('resolver' as const) }));
  }

  /**
   * A mutation field's write unit, before it reads its result back: counted for every response key
   * (mutation fields run one after the other, each with its own unit).
   */
  #write(step: FieldStep): WriteBound {
    const writes = this.input.writeEstimate?.(step.fieldName);
    if (!writes) throw new InvariantError(`${step.coordinate}: no write estimate (EstimateInput.writeEstimate)`);
    return writes;
  }

  /**
   * Whether a root list given `after` first reads that item's sort values: a generated `@list` does when
   * its order does not start with `_id`; a hand-written one may (findMany's sort is not known here).
   */
  #readsAnchor(step: FieldStep, definition: GraphQLField<unknown, unknown>): boolean {
    let args: Record<string, unknown>;
    try {
      args = this.#argsOf(step, definition);
    } catch {
      return false;
    }
    if (args.after === undefined || args.after === null) return false;
    const root = this.input.storageMap.roots.get(step.coordinate);
    if (root?.kind !== 'list') return true;
    return listSort(root, args)?.[0]?.path !== '_id';
  }

  /** `first` as root lists read it (default 20, 0..100); undefined when the resolver will reject it. */
  #first(step: FieldStep, definition: GraphQLField<unknown, unknown>): number | undefined {
    try {
      const root = this.input.storageMap.roots.get(step.coordinate);
      return validateFirst((this.#argsOf(step, definition) as PageArgs).first, root?.kind === 'list' ? root.firstDefault : undefined);
    } catch (error) {
      this.#reject(step, error);
      return undefined;
    }
  }

  /** A root field whose arguments its resolver refuses: it sends nothing, and says why. */
  #reject(step: FieldStep, error: unknown): void {
    this.#account(step, { read: 'nothing', batch: undefined, sharesWith: undefined, roundTrips: 0, documents: 0, rejected: error instanceof Error ? error.message : String(error) });
  }

  /** The step's arguments with this request's variables (graphql-js reads them from its first node); throws what graphql-js would. */
  #argsOf(step: FieldStep, definition: GraphQLField<unknown, unknown>): Record<string, unknown> {
    return getArgumentValues(definition, step.fieldNodes[0]!, this.input.variableValues as Record<string, unknown>);
  }

  #visit(scope: Scope): void {
    if (scope.objects === 0) return;
    if (scope.selections.some((selection) => selection.type === this.input.schema.getQueryType())) return this.#visitRootsAgain(scope);
    const readsByStep = new Map<FieldStep, readonly StepRead[]>();
    for (const selection of scope.selections) for (const step of selection.fields) readsByStep.set(step, this.#reads(scope, step, this.input.strategyFor));
    const settledBelow = this.whatIfTally?.tallyScope(scope, readsByStep);
    const groups = new Map<string, QueryGroup>();
    for (const [step, reads] of readsByStep) {
      if (++this.#visits > VISIT_BUDGET) return;
      for (const read of reads) {
        if (read.kind === 'batched') {
          joinBatch(groups, read);
        } else {
          this.#account(step, read.figures);
          this.#countNodes(step, [read.children]);
          this.#visitBelow(step, [read.children], settledBelow);
        }
      }
    }
    for (const group of groups.values()) this.#sendGroup(group, settledBelow);
  }

  /** A field returning Query (a payload's `query`) selects root fields again: each of its objects reads them as the operation's root does. */
  #visitRootsAgain(scope: Scope): void {
    for (let object = 0; object < scope.objects; object++) {
      for (const selection of scope.selections) {
        if (++this.#visits > VISIT_BUDGET) return;
        for (const below of this.#rootScopes(selection)) this.#visit(below);
      }
    }
  }

  /** What the root fields of `selection` read, counted, and the scopes below them. */
  #rootScopes(selection: SelectionStep): Scope[] {
    return selection.fields.flatMap((step) => {
      const below = this.#rootField(step);
      this.#countNodes(step, below);
      return below;
    });
  }

  /** Visits the scopes below a step, with the what-ifs a side pass settled for them (what-ifs.ts). */
  #visitBelow(step: FieldStep, scopes: readonly Scope[], settledBelow: ReadonlyMap<FieldStep, readonly string[]> | undefined): void {
    const visit = () => {
      for (const scope of scopes) this.#visit(scope);
    };
    const settled = settledBelow?.get(step);
    if (settled && this.whatIfTally) this.whatIfTally.whileSettled(settled, visit);
    else visit();
  }

  /** How one response key on one parent type is read: free (embedded, snapshot hit, plain value), in batches, or not at all. */
  #reads(scope: Scope, step: FieldStep, strategyFor: StrategyChoice): StepRead[] {
    const { definition } = step;
    if (!definition) return [];
    const aggregate = this.input.storageMap.aggregates.get(step.coordinate);
    if (aggregate) return this.#aggregate(scope, step, aggregate);
    if (step.fieldName === 'groupBy' && this.#aggregateTypes.has(step.parentType.name)) {
      return [{ kind: 'free', step, figures: { read: 'its groups, from the reply', batch: undefined, sharesWith: undefined, roundTrips: 0, documents: 0 }, children: { selections: step.children, objects: mul(scope.objects, this.#groups(step)) } }];
    }
    const storage = this.input.storageMap.types.get(step.parentType.name)?.fields.get(step.fieldName);
    if (!isCompositeType(getNamedType(definition.type))) return storage?.kind === 'stored' ? this.#derivedByQuery(scope, step, storage.coordinate) : [];
    const isList = isListType(getNullableType(definition.type));
    const free = (read: string, perParent: number, below: Pick<Scope, 'parents' | 'elements'> = {}): StepRead => ({
      kind: 'free',
      step,
      figures: { read, batch: undefined, sharesWith: undefined, roundTrips: 0, documents: 0 } satisfies FreeFigures,
      children: { selections: step.children, objects: mul(scope.objects, perParent), ...below },
    });
    if (storage?.kind !== 'relation') return [free('in its parent: no command', isList ? this.#listSize : 1)];
    let args: PageArgs & Readonly<Record<string, unknown>>;
    try {
      args = this.#argsOf(step, definition) as PageArgs & Readonly<Record<string, unknown>>;
    } catch {
      return []; // the resolver fails before loading anything
    }
    let requested;
    try {
      requested = requestedList(storage, args);
    } catch {
      return []; // a filter value the resolver refuses (BAD_USER_INPUT): nothing is sent
    }
    if (storage.connection) return this.#connection(scope, storage, args, step);
    const join = (shape: JoinShape) => this.#join(scope, step, storage, shape, args, [step.children], strategyFor);
    const strategy = strategyForRequest(storage, strategyFor(storage), requested);
    switch (strategy) {
      case 'embedded': {
        let slice: number | undefined;
        try {
          // The embedded resolver slices to `first` (default 20) whenever the field takes `first`.
          slice = storage.pageArguments.first ? validateFirst(args.first, storage.pageArguments.firstDefault) : undefined;
        } catch {
          return [];
        }
        const embedded = free(`read from its parent's ${storage.shapes.embedded!.path}, no command`, isList ? (slice ?? this.#listLength(storage)) : 1, this.#elementsBelow(scope, storage));
        // While an embedded copy is backfilled, parents without it read their children by the join.
        return storage.shapes.join && this.input.copyBackfilling?.(storage.coordinate) ? [embedded, ...join(storage.shapes.join)] : [embedded];
      }
      case 'snapshot': {
        const shape = storage.shapes.snapshot!;
        const fits = selectedFieldNamesOf(step, storage.targetType).every((fieldName) => shape.fields.includes(fieldName));
        if (!fits || !copiesServe(requested, shape, this.input.storageMap)) return join(shape.fallback);
        const copies = free(`read from the copy in its parent's ${shape.path}, no command`, isList ? this.#listLength(storage) : 1);
        // While backfilling, the copies that lack a field are joined: their documents arrive a moment
        // after the copies served, so both are counted, each with what it selects below.
        return this.input.copyBackfilling?.(storage.coordinate) ? [copies, ...join(shape.fallback)] : [copies];
      }
      case 'join':
        return join(storage.shapes.join!);
      case 'lookup': {
        // Parents read by docjoin carry the lookup; copied or built ones are joined; a hand-written
        // resolver's may or may not (it reads through context.documents or not): counted both ways.
        const lookedUp = scope.parents === undefined ? undefined : this.#lookup(scope, step, storage, storage.shapes.join!, args);
        if (lookedUp === undefined) return join(storage.shapes.join!);
        if (scope.elements && storage.shapes.join!.direction !== 'byKey') return join(storage.shapes.join!);
        return scope.parents === 'read' ? [lookedUp] : [lookedUp, ...join(storage.shapes.join!)];
      }
      default: {
        const never: never = strategy;
        throw new InvariantError(`unknown strategy ${String(never)}`);
      }
    }
  }

  /**
   * A join read by `$lookup` inside its parents' command: no round trip, and per parent its documents,
   * a document shared by several parents once for each (each reply holds its own copy). Undefined when
   * the page cannot be looked up (after an anchor, `first: 0`): the resolver joins it.
   */
  #lookup(scope: Scope, step: FieldStep, field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): StepRead | undefined {
    let planned;
    try {
      planned = planLookup(field, shape, args);
    } catch {
      return undefined; // BAD_USER_INPUT: the join returns nothing either
    }
    if (!planned) return undefined;
    const limit = planned.read.page.find((stage) => '$limit' in stage)?.$limit as number | undefined;
    const perParent = shape.direction === 'byKey' ? (field.isList ? this.#listLength(field) : 1) : (limit ?? this.#listSize);
    const objects = mul(scope.objects, perParent);
    const read = `$lookup in its parent's command: ${shape.collection} by ${shape.foreignField}${limit === undefined ? '' : `, ${limit} per parent`}`;
    return { kind: 'free', step, figures: { read, batch: undefined, sharesWith: undefined, roundTrips: 0, documents: objects }, children: { selections: step.children, objects, parents: 'read' } };
  }

  /**
   * The names of the lookups the projection of these selections on `typeName` makes (plan-projection.ts
   * lookupEntries), as the document loader tells its reads apart; one the resolver would refuse
   * (its arguments, a type the role may not read) is counted too, which only sends a read apart.
   */
  #lookupsBelow(typeName: string, childSelections: readonly (readonly SelectionStep[])[], strategyFor: StrategyChoice): string {
    return [...this.#lookupNamesBelow(typeName, childSelections, strategyFor, undefined)].sort().join(',');
  }

  /** The names #lookupsBelow joins; `inElementsAt`: the embedded path of the elements whose lookups these are. */
  #lookupNamesBelow(typeName: string, childSelections: readonly (readonly SelectionStep[])[], strategyFor: StrategyChoice, inElementsAt: string | undefined): Set<string> {
    const names = new Set<string>();
    for (const selections of childSelections) {
      for (const selection of selections) {
        for (const step of selection.fields) {
          const storage = this.input.storageMap.types.get(typeName)?.fields.get(step.fieldName);
          if (storage?.kind !== 'relation' || !step.definition) continue;
          let args;
          try {
            args = this.#argsOf(step, step.definition) as PageArgs & Readonly<Record<string, unknown>>;
          } catch {
            continue; // arguments the resolver refuses: nothing is looked up
          }
          if (inElementsAt === undefined && this.#looksUpInElements(storage)) {
            let strategy;
            try {
              strategy = strategyForRequest(storage, strategyFor(storage), requestedList(storage, args));
            } catch {
              strategy = strategyFor(storage); // the projection reads the array as if it asked for nothing
            }
            if (strategy === 'embedded') {
              const path = storage.shapes.embedded!.path;
              for (const name of this.#lookupNamesBelow(storage.targetType, [step.children], strategyFor, path)) names.add(name);
            }
          }
          if (!readsByLookup(storage) || strategyFor(storage) !== 'lookup') continue;
          if (inElementsAt !== undefined && storage.shapes.join!.direction !== 'byKey') continue;
          try {
            const planned = planLookup(storage, storage.shapes.join!, args);
            if (planned) names.add(inElementsAt === undefined ? planned.as : `${inElementsAt}.${planned.as}`);
          } catch {
            // arguments the resolver refuses: nothing is looked up
          }
        }
      }
    }
    return names;
  }

  /** How the elements of an embedded field were read: with their parents, when they carry their lookups; else as copies. */
  #elementsBelow(scope: Scope, field: RelationField): Pick<Scope, 'parents' | 'elements'> {
    return !scope.elements && scope.parents !== undefined && this.#looksUpInElements(field) ? { parents: scope.parents, elements: true } : {};
  }

  /** Whether the elements of an embedded field carry the lookups of their joins by key (plan-projection.ts elementLookups). */
  #looksUpInElements(field: RelationField): boolean {
    const embedded = field.shapes.embedded;
    return embedded !== undefined && !embedded.path.includes('.') && this.input.storageMap.types.has(field.targetType);
  }

  /** A relation field read by a strategy (not a connection: it has only its join). */
  #relationOf(step: FieldStep): RelationField | undefined {
    const storage = this.input.storageMap.types.get(step.parentType.name)?.fields.get(step.fieldName);
    return storage?.kind === 'relation' && !storage.connection ? storage : undefined;
  }

  /**
   * A relation returning a connection: its page is a reverse join of `first + 1` per parent (when edges,
   * nodes or pageInfo are selected), and totalCount one count per batch of parents, in the page's batch
   * (#count). Each `edges { node }` / `nodes` response key is a selection of the page's documents.
   */
  #connection(scope: Scope, field: RelationField, args: PageArgs & Readonly<Record<string, unknown>>, step: FieldStep): StepRead[] {
    const shape = field.shapes.join!;
    let planned;
    try {
      planned = planReverseJoinPage(field, shape, args);
    } catch {
      return []; // a forged cursor, first over the cap: BAD_USER_INPUT before anything is sent
    }
    const selection = connectionSteps(step);
    return [
      ...(selection.totalCount ? [this.#count(scope, step, { collection: shape.collection, foreignField: shape.foreignField, filter: planned.filter, filterSignature: JSON.stringify(planned.filter ?? null) })] : []),
      ...(selection.page ? this.#join(scope, step, field, shape, args, selection.nodeSelections, this.input.strategyFor) : []),
    ];
  }

  /**
   * An `@aggregate` field: one aggregate per batch of parents, in the batch its collection's bounded
   * reverse-join pages share (the loaders send them together); nothing when the parent's `@counter` and
   * `@total`s of the list answer all it asks (storedFigurePaths), or when nothing is selected but `__typename`.
   */
  #aggregate(scope: Scope, step: FieldStep, aggregate: AggregateField): StepRead[] {
    let request;
    try {
      request = planAggregateRequest(aggregate, step, this.#argsOf(step, step.definition!), this.input.variableValues);
    } catch {
      return []; // BAD_USER_INPUT before anything is sent
    }
    // Its value per parent, with the figures and groups below it (counted as the response's objects).
    const value = (read: string): StepRead => ({ kind: 'free', step, figures: { read, batch: undefined, sharesWith: undefined, roundTrips: 0, documents: 0 }, children: { selections: step.children, objects: scope.objects } });
    if (asksNothing(request)) return [value('nothing to compute')];
    const stored = storedFigurePaths(aggregate, request);
    if (stored && !storedFigureCoordinates(stored).some((coordinate) => this.input.copyBackfilling?.(coordinate)) && (this.input.readsEveryRow?.(aggregate.collection) ?? true)) {
      return [value(`read from its parent's ${describeStoredFigures(stored)}, no command`)];
    }
    return this.#aggregateRead(scope, step, aggregate, request);
  }

  /** One aggregate per batch of parents computing `request`, in the batch its collection's bounded reverse-join pages share. */
  #aggregateRead(scope: Scope, step: FieldStep, aggregate: AggregateField, request: AggregateRequest): StepRead[] {
    const groupings = request.groups.filter((group) => group.first > 0).length;
    const link = aggregate.parentLink?.foreignField;
    const parts = [
      link ? `$match ${link} $in keys` : '$match',
      ...(request.totals ? [link ? `$group by ${link}` : '$group of the whole set'] : []),
      ...(groupings > 0 ? [`${groupings} groupBy: $group by ${link ? `${link} and key` : 'key'}, $topN${link ? ' per parent' : ''}`] : []),
    ];
    const read = `aggregate on ${aggregate.collection}: ${parts.join(', ')}${aggregateParts(request) > 1 ? ' (parts of one command, by $unionWith)' : ''}`;
    return [
      {
        kind: 'batched',
        batch: { batch: `ref:${aggregate.collection}|bounded`, read, collection: aggregate.collection, byKey: false, getMoresPerBatch: 0, readsAnchor: false },
        // The documents its $group scans, and its replies: per parent one document per part, of which
        // the scan covers the first (a root list: one per part, all counted). One value per parent comes
        // back, with the figures and groups below it.
        member: {
          step,
          objects: mul(scope.objects, this.#listSize),
          childSelections: [step.children],
          childObjects: scope.objects,
          moreDocuments: aggregate.parentLink ? mul(scope.objects, aggregateParts(request) - 1) : aggregateParts(request),
        },
      },
    ];
  }

  /** The groups a `TAggregate.groupBy` returns per parent: its `first`, or none when the resolver refuses it. */
  #groups(step: FieldStep): number {
    try {
      const { first } = this.#argsOf(step, step.definition!) as { first?: unknown };
      if (first === null || first === undefined) return DEFAULT_GROUPS;
      return typeof first === 'number' && Number.isInteger(first) && first >= 0 && first <= MAX_GROUPS ? first : 0;
    } catch {
      return 0;
    }
  }

  /** The documents a root aggregate's `$group` scans: the collection, as measured, else an unbounded list's assumed size. */
  #aggregateDocuments(aggregate: AggregateField): number {
    return this.input.collectionSize?.(aggregate.collection) ?? this.#listSize;
  }

  /**
   * A counter is counted by query, and a total summed by one, for every parent, while `docjoin migrate`
   * backfills it (counter-field-resolver.ts, total-field-resolver.ts).
   */
  #derivedByQuery(scope: Scope, step: FieldStep, coordinate: string): StepRead[] {
    if (!this.input.copyBackfilling?.(coordinate)) return [];
    const counter = this.input.counters?.get(coordinate);
    if (counter) return [this.#count(scope, step, counter.spec)];
    const total = this.input.totals?.get(coordinate);
    return total ? this.#aggregateRead(scope, step, total.aggregate, total.request) : [];
  }

  /**
   * One count aggregate per batch of parents, sent through the collection's batcher with the level's
   * bounded pages and figures of the same children (count-loader.ts). Its reply is at most one document
   * per parent, whatever the collection holds (over a multikey path, a child listing several parents
   * counts for each), so they are counted beside the batch's capped documents; nothing is below it.
   */
  #count(scope: Scope, step: FieldStep, spec: CountSpec): StepRead {
    const read = `aggregate on ${spec.collection}: $match ${spec.foreignField} $in keys, $group by it, $count`;
    return {
      kind: 'batched',
      batch: { batch: `ref:${spec.collection}|bounded`, read, collection: spec.collection, byKey: false, getMoresPerBatch: 0, readsAnchor: false },
      member: { step, objects: 0, moreDocuments: scope.objects, childSelections: [] },
    };
  }

  #join(
    scope: Scope,
    step: FieldStep,
    field: RelationField,
    shape: JoinShape,
    args: PageArgs & Readonly<Record<string, unknown>>,
    childSelections: readonly (readonly SelectionStep[])[],
    strategyFor: StrategyChoice,
  ): StepRead[] {
    let loader: string;
    let read: string;
    let perParent: number;
    let getMoresPerBatch = 0;
    let readsAnchor = false;
    if (shape.direction === 'byKey') {
      // The loader reads the loads that make other lookups apart (document-loader.ts lookupsOf).
      const lookups = this.#lookupsBelow(field.targetType, childSelections, strategyFor);
      loader = `key:${shape.collection}|${shape.foreignField}${lookups === '' ? '' : `|${lookups}`}`;
      read = `find on ${shape.collection}: ${shape.foreignField} $in keys`;
      perParent = field.isList ? this.#listLength(field) : 1;
    } else {
      let planned;
      try {
        planned = planReverseJoinPage(field, shape, args);
      } catch {
        return []; // BAD_USER_INPUT (first over the cap, an `after` that is no id, a filter id that is none): nothing is sent
      }
      const { page } = planned;
      if (page.limit === 0) return [];
      // Bounded pages of one collection loaded together share one aggregate (aggregate-batcher.ts), whatever
      // their filters and order; an anchored page waits for its anchor, and an unbounded one goes alone,
      // each under the key of its own loader.
      loader =
        page.limit !== undefined && page.anchor === undefined
          ? `ref:${shape.collection}|bounded`
          : `ref:${reverseJoinSpecKey({ collection: shape.collection, foreignField: shape.foreignField, sort: planned.sort, perParent: page.limit, pageSignature: planned.signature })}`;
      perParent = page.limit ?? this.#listSize;
      readsAnchor = page.anchor !== undefined;
      read = `aggregate on ${shape.collection}: ${page.limit === undefined ? 'every child' : `${page.limit} per parent`} by ${shape.foreignField}${planned.sort.length > 0 ? `, sorted ${planned.sort.map((key) => `${key.direction === 1 ? '' : '-'}${key.path}`).join(',')}` : ''}${readsAnchor ? ', after a find of the `after` item' : ''}`;
      if (page.limit === undefined) {
        const perBatch = mul(scope.objects, perParent);
        getMoresPerBatch = Math.floor(Math.max(0, perBatch - 1) / (UNBOUNDED_REVERSE_JOIN_BATCH + 1));
      }
    }
    return [
      {
        kind: 'batched',
        batch: { batch: loader, read, collection: shape.collection, byKey: shape.direction === 'byKey', getMoresPerBatch, readsAnchor },
        member: { step, objects: mul(scope.objects, perParent), childSelections },
      },
    ];
  }

  /**
   * One loader under one parent scope (which has objects: #visit skips empty ones): one batch. Every load
   * of a moment resolves at one time (the loaders answer cached documents inside the batch), so the
   * members' results appear together too.
   */
  #sendGroup(group: QueryGroup, settledBelow: ReadonlyMap<FieldStep, readonly string[]> | undefined): void {
    const first = group.members[0]!;
    // A keyset page's anchor: every parent asks for the same key in one batch; the children load after it.
    const roundTrips = roundTripsOf(group);
    const documents = this.#batchDocuments(group) + (group.readsAnchor ? 1 : 0);
    group.members.forEach((member, index) => {
      const shared = member === first ? undefined : first.step.responseKey === member.step.responseKey ? first.step.coordinate : `${first.step.coordinate} (${first.step.responseKey})`;
      this.#account(member.step, { read: group.reads[index]!, batch: group.batch, sharesWith: shared, roundTrips: shared ? 0 : roundTrips, documents: shared ? 0 : documents });
    });
    for (const member of group.members) {
      const below = memberScopes(member);
      this.#countNodes(member.step, below);
      this.#visitBelow(member.step, below, settledBelow);
    }
  }

  /**
   * The documents one batch of the group can return: what its members ask for, and never more than the
   * collection holds — once in all for a join by key (one `$in`), once per member for a reverse join.
   */
  #batchDocuments(group: QueryGroup): number {
    const size = group.collection === undefined ? undefined : this.input.collectionSize?.(group.collection);
    const cap = (documents: number) => (size === undefined ? documents : Math.min(documents, size));
    if (group.byKey) return cap(group.members.reduce((sum, member) => add(sum, member.objects), 0));
    return group.members.reduce((sum, member) => add(add(sum, cap(member.objects)), member.moreDocuments ?? 0), 0);
  }

  /** Entries of a list read from its parent's array: as measured in the data, else the assumed size. */
  #listLength(field: RelationField): number {
    return this.input.listLength?.(field.coordinate) ?? this.#listSize;
  }
}

/** `counter Post.commentCount and total Product.ratingTotal`: the stored fields an aggregate is read from. */
function describeStoredFigures(stored: StoredFigurePaths): string {
  const totals = [...stored.totals.values()].map(({ coordinate }) => coordinate);
  return [...(stored.counter ? [`counter ${stored.counter.coordinate}`] : []), ...(totals.length > 0 ? [`total${totals.length > 1 ? 's' : ''} ${totals.join(', ')}`] : [])].join(' and ');
}
