import type { OperationPlan } from '../plan/operation-plan';
import type { FieldStep, SelectionStep } from '../plan/selection-tree';
import { BREAK, getNamedType, Kind, visit, type FieldNode, type GraphQLOutputType } from 'graphql';
import type { AggregateField, AggregateKey, EmbeddedShape, ListOrder, RelationField, RootCondition, SnapshotShape, SortKey, StorageMap } from '../../startup/storage-map/storage-map-types';
import { copiesOnPath, copiesUnder, snapshotStoredPaths } from '../../startup/storage-map/copy-paths';
import { isAtOrUnder, pathsOverlap } from '../../documents/read-path';
import { readRuleOf, sameValue } from '../../startup/access-rules/access-rule-types';
import type { ViewerAccess } from '../../request/access/viewer-access';
import { InvariantError } from '../../errors/internal-errors';
import { storedPathsOf } from '../../startup/storage-map/stored-paths';

/** The generated mutations' actions, by Mutation field name: what a role needs a rule for. */
export type MutationActions = ReadonlyMap<string, { readonly kind: 'create' | 'update' | 'delete'; readonly typeName: string }>;

/** Who may run introspection (`__schema`, `__type`): everyone, no one, or these roles. */
export type IntrospectionAccess = boolean | readonly string[];

export interface OperationAccessContext {
  readonly storageMap: StorageMap;
  readonly mutations: MutationActions;
  readonly introspection: IntrospectionAccess;
}

/**
 * Why the viewer's role may not run the operation, read from its plan before anything runs; undefined
 * when it may. Refused: introspection the role is not allowed; a field the role's rule hides, whether
 * selected, filtered by, or sorted by (an order or a filter shows a value as surely as a selection
 * does); a generated root read of a type the role may not read; a generated mutation the role has no
 * rule for. Rows are not decided here: their filters go into the MongoDB commands.
 */
export function operationAccessRefusal(plan: OperationPlan, access: ViewerAccess | undefined, role: string, context: OperationAccessContext): string | undefined {
  const byRole = refusals.get(plan) ?? new Map<string, string | null>();
  refusals.set(plan, byRole);
  const known = byRole.get(role);
  if (known !== undefined) return known ?? undefined;
  let refusal: string | undefined;
  if (!plan.root) {
    // No tree to walk: the rules cannot be checked, and introspection is looked for in the document itself.
    const introspection = selectsIntrospection(plan) ? new AccessWalk(access, role, context, false).introspection() : undefined;
    refusal = access ? 'the operation is too large to check against the access rules' : introspection;
  } else refusal = new AccessWalk(access, role, context, plan.operation.operation === 'mutation').selection(plan.root);
  byRole.set(role, refusal ?? null);
  return refusal;
}

/** Whether the operation, or a fragment of its document, selects `__schema` or `__type` anywhere (skipped or not). */
function selectsIntrospection(plan: OperationPlan): boolean {
  let found = false;
  const field = {
    Field(node: FieldNode) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  };
  for (const node of [plan.operation, ...Object.values(plan.fragments)]) {
    visit(node, field);
    if (found) return true;
  }
  return false;
}

/**
 * What ordering or filtering `typeName` documents by the stored `path` would show the viewer's role that
 * it may not see, worded to follow "sorts by" / "filters by" (a hand-written resolver's order or filter,
 * checked as the generated lists' are); undefined when nothing.
 */
export function comparisonRefusal(access: ViewerAccess, storageMap: StorageMap, typeName: string, path: string): string | undefined {
  // A hand-written filter may name an array's element by its position ("badges.0.code"): it compares the field all the same.
  const fieldPath = path
    .split('.')
    .filter((segment) => !/^\d+$/.test(segment))
    .join('.');
  return new AccessWalk(access, access.role, { storageMap, mutations: new Map(), introspection: true }, false).comparisonRefusal(typeName, fieldPath);
}

/** Per plan, per role: a plan is made for one document and shape, and a role's rules do not change. */
const refusals = new WeakMap<OperationPlan, Map<string, string | null>>();

class AccessWalk {
  /** The (type, path) pairs #pathRefusal is checking: copies can lead back to one (a type embedding one that snapshots it). */
  readonly #visiting = new Set<string>();

  constructor(
    private readonly access: ViewerAccess | undefined,
    private readonly role: string,
    private readonly context: OperationAccessContext,
    private readonly isMutation: boolean,
  ) {}

  selection(step: SelectionStep, atRoot = true): string | undefined {
    for (const field of step.fields) {
      const refusal = this.field(field, atRoot);
      if (refusal) return refusal;
      for (const child of field.children) {
        const below = this.selection(child, false);
        if (below) return below;
      }
    }
    return undefined;
  }

  field(step: FieldStep, atRoot: boolean): string | undefined {
    if (!step.definition) return step.fieldName === '__schema' || step.fieldName === '__type' ? this.introspection() : undefined;
    const { access } = this;
    if (!access) return undefined;
    const typeName = step.parentType.name;
    const selected = this.#selectionRefusal(typeName, step.fieldName);
    if (selected) return selected;
    if (atRoot && this.isMutation) return this.mutation(step.fieldName, step.definition.type);
    const { storageMap } = this.context;
    const aggregate = storageMap.aggregates.get(step.coordinate);
    if (aggregate) return this.aggregate(step, aggregate, atRoot);
    // A root field is checked wherever it is selected: a field returning Query (a payload's `query`) reaches it again.
    const root = storageMap.roots.get(step.coordinate);
    const relation = storageMap.relations.get(step.coordinate);
    const target = root?.targetType ?? relation?.targetType;
    if (target === undefined) return undefined;
    if (root && !access.canRead(target)) return `role "${this.role}" may not read ${target}`;
    // A reverse join picks each parent's children by their key: it shows the key (a hidden one, or one copied from rows the role reads in part) as a filter by it would.
    const join = relation?.shapes.join;
    const byKey = join?.direction === 'byReference' ? this.#pathRefusal(target, join.foreignField) : undefined;
    if (byKey) return `${step.coordinate} joins by ${byKey}`;
    // And the parent's value it matches: the children (their key, a cursor, which parents share them) show it.
    const byParentKey = join?.direction === 'byReference' ? this.#parentKeyRefusal(typeName, join.localField) : undefined;
    if (byParentKey) return `${step.coordinate} joins by the parent's ${byParentKey}`;
    // An @inverse list names the rows whose reference points at the parent: it shows that reference as a reverse join by it would.
    const mirrored = relation ? access.rules.inverses.get(relation.coordinate) : undefined;
    const byMirrored = mirrored ? this.#pathRefusal(mirrored.truthType, mirrored.truthPath) : undefined;
    if (mirrored && byMirrored) return `${step.coordinate} mirrors ${mirrored.of}: it lists the ${mirrored.truthType} documents by ${byMirrored}`;
    const given = givenArguments(step);
    const conditions: readonly RootCondition[] = root?.conditions ?? relation?.listArguments.conditions ?? [];
    for (const condition of conditions) {
      const shown = given.has(condition.argumentName) ? this.#pathRefusal(target, condition.path) : undefined;
      if (shown) return `${step.coordinate}(${condition.argumentName}:) filters by ${shown}`;
    }
    const orderBy: ListOrder | undefined = root?.kind === 'list' ? root.orderBy : relation?.listArguments.orderBy;
    const orders: (readonly SortKey[])[] = [];
    if (orderBy && given.has(orderBy.argumentName)) orders.push(...orderChosen(step, orderBy));
    // The list's own order runs where no orderBy is chosen: a literal order replaces it.
    const ownOrder = ownOrderMayRun(step, orderBy);
    if (root?.kind === 'list' && ownOrder) orders.push(root.sort);
    if (join?.direction === 'byReference' && ownOrder) orders.push(join.sort);
    for (const key of orders.flat()) {
      const shown = this.comparisonRefusal(target, key.path);
      if (shown) return `${step.coordinate} sorts by ${shown}`;
    }
    return undefined;
  }

  /**
   * Whether every document the rows the role reads refer to by `field` (a by-key reference) is one it
   * reads: it reads the target's every row, or the target's one condition is on the key the join matches
   * and the parent's rule pins its key to the same value (`Order.customer = claim sub`, `Customer.id = claim sub`).
   */
  #referencesOnlyReadable(field: RelationField): boolean {
    if (this.#readsEveryRowOf(field.targetType)) return true;
    const { rules } = this.access!;
    const target = readRuleOf(rules, field.targetType, this.role);
    const parent = readRuleOf(rules, field.typeName, this.role);
    const join = field.shapes.join;
    if (join === undefined || target === undefined || target === 'all' || parent === undefined || parent === 'all') return false;
    const [only, ...more] = target.where;
    if (only === undefined || more.length > 0 || only.path !== join.foreignField) return false;
    return parent.where.some((condition) => condition.path === join.localField && sameValue(condition, only));
  }

  comparisonRefusal(typeName: string, path: string): string | undefined {
    return path === '_id' ? undefined : this.#pathRefusal(typeName, path);
  }

  /**
   * Why the role may not select `typeName.fieldName`: the type hides it; it reads a stored path a hidden
   * field also reads (another name for the same value, a part of it, or a value holding it); or, stored
   * inside a copy, it shows what ordering by its path would (#pathRefusal); or it joins by a key stored
   * where the role may not see it (the key's value is the joined document's id). A relation's own copy
   * is checked by its resolver, row by row.
   */
  #selectionRefusal(typeName: string, fieldName: string): string | undefined {
    if (this.access!.hidden(typeName).has(fieldName)) {
      const mirrored = this.access!.rules.inverses.get(`${typeName}.${fieldName}`);
      // Hidden with the reference it mirrors (build-access-rules.ts, hideMirrorsOfHidden), whether or not the rule names it.
      const why = mirrored && this.#pathRefusal(mirrored.truthType, mirrored.truthPath) !== undefined ? `: it mirrors ${mirrored.of}, which the role may not read` : '';
      return `${typeName}.${fieldName} is hidden from role "${this.role}"${why}`;
    }
    const storage = this.context.storageMap.types.get(typeName);
    const field = storage?.fields.get(fieldName);
    if (!storage || !field) return undefined;
    // Another field laid over a copy (a stored value, an @embedded type, another relation at or around its
    // path) shows it without its checks. A relation's own copy is checked by its resolver: a @collection
    // target row by row, which covers another relation's copy of the same type at the same path but for
    // the order and rows its join keeps there.
    const own = field.kind === 'relation' ? field : undefined;
    const readAs = own !== undefined && this.context.storageMap.types.get(own.targetType)?.collection !== undefined ? own.targetType : undefined;
    const copies = field.kind === 'stored' ? [field.path] : [field.shapes.embedded?.path, field.shapes.snapshot?.path].filter((path) => path !== undefined);
    for (const path of copies) {
      const inside = this.#pathRefusal(typeName, path, own, false, readAs);
      if (inside) return `${typeName}.${fieldName} reads ${inside}`;
    }
    // A reference's key shows its value wherever it is stored (inside another relation's copy too).
    const join = own?.shapes.join;
    const key = join?.direction === 'byKey' ? this.#pathRefusal(typeName, join.localField, own, true) : undefined;
    if (key) return `${typeName}.${fieldName} joins by ${key}`;
    const hiddenPaths = this.#hiddenPaths(typeName);
    for (const path of storedPathsOf(storage, fieldName)) {
      const read = hiddenAt(hiddenPaths, path);
      if (read !== undefined) return `${typeName}.${fieldName} reads ${typeName}.${read}, which is hidden from role "${this.role}"`;
      const held = hiddenInside(hiddenPaths, path);
      if (held) return `${typeName}.${fieldName} holds ${typeName}.${held.fieldName} (stored at "${held.path}"), which is hidden from role "${this.role}"`;
    }
    return undefined;
  }

  /**
   * What ordering or filtering `typeName` documents by the stored `path` would show the role that it
   * may not see, worded to follow "sorts by" / "filters by"; undefined when nothing. A field the type
   * hides at, around or inside the path (a document compares, groups and reads by its fields); a value
   * inside a copy (a snapshot, an embedded document or array) of a type the role may not read, reads
   * only some rows of, or hides that value in (an order or a filter shows the copied values of every
   * row, not only of those the viewer may read); a copy inside the value, read whole. `joinedBy`: the
   * path is a join's key, whose ids are read through the target's filter.
   */
  #pathRefusal(typeName: string, path: string, except?: RelationField, joinedBy = false, readAs?: string): string | undefined {
    // What a path reached again shows is found where it was first reached.
    const visit = `${typeName}\u0000${path}`;
    if (this.#visiting.has(visit)) return undefined;
    this.#visiting.add(visit);
    try {
      return this.#pathRefusalOnce(typeName, path, except, joinedBy, readAs);
    } finally {
      this.#visiting.delete(visit);
    }
  }

  /** `readAs`: the @collection type a relation reads the path's documents as, checking its rows and fields itself. */
  #pathRefusalOnce(typeName: string, path: string, except: RelationField | undefined, joinedBy: boolean, readAs: string | undefined): string | undefined {
    const hidden = this.#hiddenRefusal(typeName, path);
    if (hidden !== undefined) return hidden;
    const held = hiddenInside(this.#hiddenPaths(typeName), path);
    if (held) return `"${path}", which holds ${typeName}.${held.fieldName} (stored at "${held.path}"), hidden from role "${this.role}"`;
    // A join by an @inverse list's array reads the ids through the target's filter (`joinedBy`).
    const mirrored = joinedBy ? undefined : this.#mirroredArrayRefusal(typeName, path);
    if (mirrored !== undefined) return mirrored;
    const { storageMap } = this.context;
    for (const { field, copy, whole, inTarget } of copiesOnPath(storageMap, typeName, path, except)) {
      // A snapshot's key is the reference it copies from, shown as a plain reference's key is.
      if (copy.kind === 'snapshot' && inTarget === '_id') continue;
      // Another field reading a copy a relation keeps there: it is checked when it is read itself.
      if (readsKeptCopy(storageMap, field, copy)) continue;
      let unseen: string | undefined;
      if (!whole) unseen = this.#copyRefusal(field, copy, false);
      // Read as its own type, its rows and fields are the reading relation's to check; what its join keeps there is not.
      else if (readAs === field.targetType) unseen = this.#keptRefusal(field, copy);
      else unseen = this.#wholeCopyRefusal(field, copy);
      if (unseen) return unseen;
      const below = inTarget === undefined ? undefined : this.#pathRefusal(field.targetType, inTarget);
      if (below) return below;
    }
    // A value around copies (a JSON `meta` holding a snapshot at `meta.author`) shows them whole; one at the path itself is checked above.
    for (const { field, copy } of copiesUnder(storageMap, typeName, path, except, new Set(), true)) {
      if (readsKeptCopy(storageMap, field, copy)) continue;
      const unseen = this.#wholeCopyRefusal(field, copy);
      if (unseen) return `"${path}", which holds ${unseen}`;
    }
    return undefined;
  }

  /**
   * What a copy read whole shows the role that it may not see: #copyRefusal's, and what the copies
   * inside the values it copies show (a snapshot of User copying `meta`, where User embeds an Address
   * that hides `secret` at `meta.address`). `seen`: the embedded types it is inside.
   */
  #wholeCopyRefusal(field: RelationField, copy: EmbeddedShape | SnapshotShape, seen: ReadonlySet<string> = new Set()): string | undefined {
    const unseen = this.#copyRefusal(field, copy, true);
    if (unseen || seen.has(field.targetType)) return unseen;
    const { storageMap } = this.context;
    if (copy.kind === 'snapshot') {
      // Its fields are read as paths of the copied type are (a copied field may lie inside a copy there).
      for (const path of snapshotStoredPaths(storageMap, field.targetType, copy)) {
        const inside = this.#pathRefusal(field.targetType, path);
        if (inside) return inside;
      }
      return undefined;
    }
    const within = new Set([...seen, field.targetType]);
    for (const held of copiesUnder(storageMap, field.targetType, '')) {
      const inside = this.#wholeCopyRefusal(held.field, held.copy, within);
      if (inside) return inside;
    }
    return undefined;
  }

  /**
   * The array an `@inverse` list keeps at or around `path` (`Person.taskIds` under `Person.tasks`) when
   * the role reads the mirrored type only in part: other tenants' creates put their ids there. The list
   * itself is joined through the role's filter; the array read, ordered or filtered by as it is would
   * show every id.
   */
  #mirroredArrayRefusal(typeName: string, path: string): string | undefined {
    const { rules } = this.access!;
    for (const [coordinate, mirrored] of rules.inverses) {
      const list = this.context.storageMap.relations.get(coordinate);
      const array = list?.typeName === typeName ? list.shapes.join?.localField : undefined;
      if (array === undefined || !pathsOverlap(array, path)) continue;
      const rule = readRuleOf(rules, mirrored.truthType, this.role);
      const unseen = rule === undefined ? 'may not read' : rule !== 'all' && rule.where.length > 0 ? 'reads only in part' : undefined;
      if (unseen !== undefined) return `"${array}", the array ${coordinate} keeps of ${mirrored.of}, whose ${mirrored.truthType} documents role "${this.role}" ${unseen}`;
    }
    return undefined;
  }

  /** What a reverse join's match on the parent's `localField` shows (its children's key, cursors, which parents share them); the id shows nothing. */
  #parentKeyRefusal(typeName: string, localField: string): string | undefined {
    return localField === '_id' ? undefined : this.#pathRefusal(typeName, localField);
  }

  /** The field `typeName` hides from the role at or around the stored `path`, worded to follow "sorts by" / "joins by". */
  #hiddenRefusal(typeName: string, path: string): string | undefined {
    const hidden = hiddenAt(this.#hiddenPaths(typeName), path);
    return hidden === undefined ? undefined : `${typeName}.${hidden}, which is hidden from role "${this.role}"`;
  }

  /**
   * What a copy shows that the role may not see: rows of a type it may not read, or reads only in part;
   * read whole, fields its rule hides; and which rows its join keeps there, in what order (#keptRefusal).
   */
  #copyRefusal(field: RelationField, copy: { readonly path: string }, whole: boolean): string | undefined {
    const shown = copyName(field, copy);
    const rule = readRuleOf(this.access!.rules, field.targetType, this.role);
    if (rule === undefined) return `${shown}, which role "${this.role}" may not read`;
    if (rule !== 'all' && rule.where.length > 0) return `${shown}, whose rows role "${this.role}" reads only in part`;
    if (whole && rule !== 'all' && rule.hidden.size > 0) return `${shown}, which holds fields hidden from role "${this.role}"`;
    return this.#keptRefusal(field, copy);
  }

  /**
   * What a copy a relation keeps shows through which rows are there, and in what order, read by any
   * field, as the relation itself would: the parent's key a by-key copy (a snapshot, an embedded
   * document) is the document of; an embedded array's join sort (the order, and with a limit which rows
   * are kept: the top comments by a hidden score); a reverse join's key and the parent's value it matches.
   */
  #keptRefusal(field: RelationField, copy: { readonly path: string }): string | undefined {
    const join = field.shapes.snapshot === copy ? field.shapes.snapshot.fallback : field.shapes.embedded === copy ? field.shapes.join : undefined;
    if (!join) return undefined;
    for (const key of join.sort) {
      const shown = this.comparisonRefusal(field.targetType, key.path);
      if (shown) return `${copyName(field, copy)}, kept in the order of ${shown}`;
    }
    if (join.direction === 'byKey') {
      const byParentKey = this.#pathRefusal(field.typeName, join.localField, field, true);
      return byParentKey && `${copyName(field, copy)}, kept by ${byParentKey}`;
    }
    const byKey = this.#pathRefusal(field.targetType, join.foreignField);
    if (byKey) return `${copyName(field, copy)}, kept by ${byKey}`;
    const byParentKey = this.#parentKeyRefusal(field.typeName, join.localField);
    return byParentKey && `${copyName(field, copy)}, kept by the parent's ${byParentKey}`;
  }

  /**
   * An `@aggregate` field shows the values it adds up, orders and groups by as surely as a selection:
   * each figure's field, each group key (a `by` from a variable, when the role hides a key it could
   * name, cannot be checked before it runs, so it is refused), and each filter given.
   */
  aggregate(step: FieldStep, aggregate: AggregateField, atRoot: boolean): string | undefined {
    const access = this.access!;
    const target = aggregate.targetType;
    if (atRoot && !access.canRead(target)) return `role "${this.role}" may not read ${target}`;
    const list = aggregate.list.slice(aggregate.list.indexOf('.') + 1);
    if (access.hidden(aggregate.typeName).has(list)) return `${step.coordinate} adds up ${aggregate.list}, which is hidden from role "${this.role}"`;
    for (const figures of step.children.flatMap((selection) => selection.fields)) {
      if (figures.fieldName !== 'groupBy') continue;
      // A group's key shows the referenced ids, and how many point at each: as a join would, the role must read them all.
      const written = groupedKeys(figures, aggregate);
      const partly = (written ?? [...aggregate.keys.values()]).find((key) => key.references !== undefined && !this.#referencesOnlyReadable(this.#relationOf(target, key.fieldName)));
      if (partly) return `${step.coordinate} ${written ? 'groups' : 'may group (by: a variable)'} by ${target}.${partly.fieldName}, whose ${partly.references} documents role "${this.role}" reads only in part`;
    }
    const byKey = aggregate.parentLink ? this.#pathRefusal(target, aggregate.parentLink.foreignField) : undefined;
    if (byKey) return `${step.coordinate} adds up children joined by ${byKey}`;
    const byParentKey = aggregate.parentLink ? this.#parentKeyRefusal(aggregate.typeName, aggregate.parentLink.localField) : undefined;
    if (byParentKey) return `${step.coordinate} adds up children joined by the parent's ${byParentKey}`;
    const given = givenArguments(step);
    for (const condition of aggregate.conditions) {
      const shown = given.has(condition.argumentName) ? this.#pathRefusal(target, condition.path) : undefined;
      if (shown) return `${step.coordinate}(${condition.argumentName}:) filters by ${shown}`;
    }
    for (const figures of step.children.flatMap((selection) => selection.fields)) {
      if (figures.fieldName === 'groupBy') {
        const keys = groupedKeys(figures, aggregate);
        for (const key of keys ?? aggregate.keys.values()) {
          const shown = this.#pathRefusal(target, key.path);
          if (shown) return `${step.coordinate} ${keys === undefined ? 'may group (by: a variable) by' : 'groups by'} ${shown}`;
        }
      }
      for (const below of figures.children.flatMap((selection) => selection.fields)) {
        const read = below.children.flatMap((selection) => selection.fields).map((field) => field.fieldName);
        // sum { x }, key { x } and a group's own figures: `below` is a figure type's field, or one of a group's.
        for (const fieldName of [below.fieldName, ...read]) {
          for (const path of aggregatePaths(aggregate, fieldName)) {
            const shown = this.#pathRefusal(target, path);
            if (shown) return `${step.coordinate} reads ${shown}`;
          }
        }
      }
    }
    return undefined;
  }

  introspection(): string | undefined {
    const allowed = this.context.introspection;
    if (allowed === true || (Array.isArray(allowed) && allowed.includes(this.role))) return undefined;
    return `introspection is not allowed for role "${this.role}"`;
  }

  /** A generated mutation the role has no rule for, or may not read back what it returns (the write would commit, then fail). */
  mutation(fieldName: string, returnType: GraphQLOutputType): string | undefined {
    const generated = this.context.mutations.get(fieldName);
    if (!generated || !this.access) return undefined;
    const rule = this.access.rules.types.get(generated.typeName)?.roles.get(this.role)?.[generated.kind];
    if (!rule) return `role "${this.role}" may not ${generated.kind} ${generated.typeName}`;
    if (rule.via.size > 0 && !rule.via.has(fieldName)) return `role "${this.role}" may ${generated.kind} ${generated.typeName} only through ${[...rule.via].join(', ')}`;
    const returned = getNamedType(returnType).name;
    if (returned === generated.typeName && !this.access.canRead(returned)) {
      return `role "${this.role}" may ${generated.kind} ${returned} but not read it, and Mutation.${fieldName} returns it; let the role read ${returned}, or write a mutation that returns its id`;
    }
    return undefined;
  }

  #relationOf(typeName: string, fieldName: string): RelationField {
    const field = this.context.storageMap.types.get(typeName)?.fields.get(fieldName);
    if (field?.kind !== 'relation') throw new InvariantError(`${typeName}.${fieldName} is no relation`);
    return field;
  }

  #readsEveryRowOf(typeName: string): boolean {
    const collection = this.context.storageMap.types.get(typeName)?.collection;
    return collection !== undefined && this.access!.readsEveryRow(collection);
  }

  /** The stored paths of the fields `typeName` hides from the role (a reference by its key, an embedded or copied value by its path), to the field names. */
  #hiddenPaths(typeName: string): ReadonlyMap<string, string> {
    const hidden = this.access!.hidden(typeName);
    const paths = new Map<string, string>();
    const storage = this.context.storageMap.types.get(typeName);
    if (hidden.size === 0 || !storage) return paths;
    for (const fieldName of hidden) {
      // A relation joined by the document's own _id (a one-to-one) hides its target, not the id.
      const ownId = storage.fields.get(fieldName)?.kind === 'relation';
      for (const path of storedPathsOf(storage, fieldName)) if (!(ownId && path === '_id')) paths.set(path, fieldName);
    }
    return paths;
  }
}

/** Whether the relation keeps the copy at its path (a snapshot, or an embedded copy its join fills), rather than only reads what is there. */
function keepsCopy(field: RelationField, copy: { readonly kind: 'embedded' | 'snapshot' }): boolean {
  return copy.kind === 'snapshot' || field.shapes.join !== undefined;
}

/** Whether the relation only reads, at its path, a copy another relation of its type keeps there. */
function readsKeptCopy(storageMap: StorageMap, reader: RelationField, copy: { readonly kind: 'embedded' | 'snapshot'; readonly path: string }): boolean {
  if (keepsCopy(reader, copy)) return false;
  for (const field of storageMap.types.get(reader.typeName)?.fields.values() ?? []) {
    if (field.kind !== 'relation') continue;
    for (const kept of [field.shapes.embedded, field.shapes.snapshot]) if (kept?.path === copy.path && keepsCopy(field, kept)) return true;
  }
  return false;
}

/** How a refusal names a copy: `Post.comments (a copy of Comment at "comments")`. */
function copyName(field: RelationField, copy: { readonly path: string }): string {
  return `${field.typeName}.${field.fieldName} (a copy of ${field.targetType} at "${copy.path}")`;
}

/** The arguments a step gives: those the operation sets, and those the schema gives a default. */
function givenArguments(step: FieldStep): ReadonlySet<string> {
  return new Set([
    ...step.fieldNodes.flatMap((node) => (node.arguments ?? []).map((argument) => argument.name.value)),
    ...(step.definition?.args ?? []).filter((argument) => argument.defaultValue !== undefined).map((argument) => argument.name),
  ]);
}

/** The `groupBy(by:)` keys written in the operation; undefined when `by` comes from a variable. */
function groupedKeys(step: FieldStep, aggregate: AggregateField): AggregateKey[] | undefined {
  const by = step.fieldNodes[0]?.arguments?.find((argument) => argument.name.value === 'by')?.value;
  const values = by?.kind === Kind.LIST ? by.values : by ? [by] : [];
  if (values.some((value) => value.kind !== Kind.ENUM)) return undefined;
  return values.flatMap((value) => (value.kind === Kind.ENUM && aggregate.keys.has(value.value) ? [aggregate.keys.get(value.value)!] : []));
}

/** The stored paths `fieldName` names among the target's fields the aggregate computes figures over or groups by. */
function aggregatePaths(aggregate: AggregateField, fieldName: string): string[] {
  const figure = aggregate.figures.get(fieldName);
  return [...(figure ? [figure.path] : []), ...[...aggregate.keys.values()].filter((key) => key.fieldName === fieldName).map((key) => key.path)];
}

/**
 * The orders an `orderBy` argument may pick: the value the operation writes, or the argument's default
 * when it writes none; every value when a variable gives it.
 */
function orderChosen(step: FieldStep, orderBy: ListOrder): (readonly SortKey[])[] {
  const written = step.fieldNodes.map((node) => node.arguments?.find((argument) => argument.name.value === orderBy.argumentName)?.value);
  const fallback = step.definition?.args.find((argument) => argument.name === orderBy.argumentName)?.defaultValue;
  const names = written.map((value) => (value === undefined ? fallback : value.kind === Kind.ENUM ? value.value : undefined));
  if (names.some((name) => typeof name !== 'string' || !orderBy.sorts.has(name))) return [...orderBy.sorts.values()];
  return [...new Set(names as string[])].map((name) => orderBy.sorts.get(name)!);
}

/** Whether the list's own order may run: it has no orderBy, or a selection of it leaves one out (with no default), gives null or a variable. */
function ownOrderMayRun(step: FieldStep, orderBy: ListOrder | undefined): boolean {
  if (!orderBy) return true;
  const fallback = step.definition?.args.find((argument) => argument.name === orderBy.argumentName)?.defaultValue;
  return step.fieldNodes.some((node) => {
    const written = node.arguments?.find((argument) => argument.name.value === orderBy.argumentName)?.value;
    return written === undefined ? fallback === undefined || fallback === null : written.kind !== Kind.ENUM;
  });
}

/** A hidden field stored inside `path` (`home.city` inside `home`). */
function hiddenInside(hiddenPaths: ReadonlyMap<string, string>, path: string): { readonly path: string; readonly fieldName: string } | undefined {
  for (const [hiddenPath, fieldName] of hiddenPaths) if (hiddenPath.startsWith(`${path}.`)) return { path: hiddenPath, fieldName };
  return undefined;
}

/** The hidden field whose stored path is `path`, or holds it (`home` hides `home.city`). */
function hiddenAt(hiddenPaths: ReadonlyMap<string, string>, path: string): string | undefined {
  for (const [hiddenPath, fieldName] of hiddenPaths) if (isAtOrUnder(path, hiddenPath)) return fieldName;
  return undefined;
}
