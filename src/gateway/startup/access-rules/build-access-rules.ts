import { isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { copiesOnPath } from '../storage-map/copy-paths';
import { documentLocations } from '../storage-map/document-locations';
import { isAtOrUnder, pathsOverlap } from '../../documents/read-path';
import { readAccess, type AccessDirective } from '../storage-map/read-directives';
import { storedPathsOf } from '../storage-map/stored-paths';
import { rowCondition } from './row-condition';
import type { RelationField, StorageMap, TypeStorage } from '../storage-map/storage-map-types';
import type { WriteModel } from '../write-model/write-model-types';
import { describeCondition, describeEquals, readRuleOf, sameValue, type AccessAction, type AccessRules, type ActionRule, type MirroredReference, type ReadRule, type RoleRules, type RowCondition, type TypeAccess, type UpdateRule } from './access-rule-types';

type MutableRoleRules = { -readonly [action in keyof RoleRules]: RoleRules[action] };

/**
 * SDL `@access` rules → AccessRules, checked against every path the data can take. A problem names
 * `Type.field` (or the type) and the fix; the start stops on any. The paths and what makes each safe:
 * - a root read, a join, a reverse join, a count, a cursor's anchor: the funnel adds the row filter to
 *   the MongoDB command (request/access/scope-read-command.ts), so nothing here;
 * - a snapshot copy: checked on the copy when the copy holds every `where` field, else joined (with the
 *   filter) for that role;
 * - an embedded array of a `@collection` type's documents: joined for that role, which needs its `@join`;
 * - a counter or a total: its stored figure is everyone's, so the role's filter on the counted type must
 *   follow from its filter on the counter's type (the same claim on both ends of the join), and a total's
 *   summed field must be one the role reads, or the counter or total is hidden from the role.
 */
export function buildAccessRules(schema: GraphQLSchema, storageMap: StorageMap, derived: Pick<WriteModel, 'counters' | 'totals' | 'inverses'>): { rules: AccessRules; problems: string[] } {
  const problems: string[] = [];
  const types = new Map<string, TypeAccess>();
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((type) => type !== null && type !== undefined));
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    const directives = readAccess(schema, type);
    if (directives.length === 0) continue;
    const storage = storageMap.types.get(type.name);
    if (roots.has(type) || !storage || storageMap.connections.has(type.name)) {
      problems.push(`${type.name}: @access belongs on the object types your fields return (a @collection type, or one embedded in one), not on ${type.name}; move the rule there`);
      continue;
    }
    const access = typeAccess(type, storage, directives, new Set(Object.keys(schema.getMutationType()?.getFields() ?? {})), storageMap.refused, problems);
    if (access) types.set(type.name, access);
  }
  const typeOfCollection = new Map<string, string>();
  for (const storage of storageMap.types.values()) {
    if (storage.collection === undefined) continue;
    const other = typeOfCollection.get(storage.collection);
    if (other !== undefined && types.size > 0 && (types.has(other) || types.has(storage.typeName))) {
      problems.push(`${storage.typeName}: shares the collection "${storage.collection}" with ${other}, so a rule of one would scope the other's reads; give each @access type a collection of its own`);
    }
    if (other === undefined) typeOfCollection.set(storage.collection, storage.typeName);
  }
  // A join may name its collection (@join(collection:)): the documents it reads there are its target's.
  const uncollected = new Set<string>();
  const ownedCollections = new Set(typeOfCollection.keys());
  for (const field of storageMap.relations.values()) {
    for (const join of [field.shapes.join, field.shapes.snapshot?.fallback]) {
      if (!join) continue;
      // Rules scope a collection's reads by its @collection type's; with none, every role would read it (one another type owns is refused below).
      if (types.size > 0 && storageMap.types.get(join.targetType)?.collection === undefined && !ownedCollections.has(join.collection) && !uncollected.has(join.targetType)) {
        uncollected.add(join.targetType);
        problems.push(`${join.targetType}: ${field.coordinate} joins it from the collection "${join.collection}", but ${join.targetType} has no @collection, so no access rule would scope those reads; add @collection(name: "${join.collection}") to ${join.targetType}`);
      }
      const other = typeOfCollection.get(join.collection);
      if (other === undefined) typeOfCollection.set(join.collection, join.targetType);
      else if (other !== join.targetType && types.size > 0 && (types.has(other) || types.has(join.targetType))) {
        problems.push(`${field.coordinate}: joins ${join.targetType} documents from "${join.collection}", which holds ${other}, so neither type's rules could be told apart there; join from ${join.targetType}'s own collection`);
      }
    }
  }
  const roles = new Set([...types.values()].flatMap((type) => [...type.roles.keys()]));
  const collectionTypes = new Set([...storageMap.types.values()].filter((storage) => storage.collection !== undefined).map((storage) => storage.typeName));
  const inverses = new Map(derived.inverses.map((inverse) => [inverse.coordinate, { of: inverse.of, truthType: inverse.truthType, truthPath: inverse.truthPath }]));
  hideMirrorsOfHidden(types, storageMap, inverses);
  const rules: AccessRules = { enabled: types.size > 0, types, typeOfCollection, collectionTypes, roles, joinedFor: new Map(), joinedIn: new Map(), copiesHiddenIn: new Map(), inverses };
  if (!rules.enabled) return { rules, problems };
  const joinedFor = new Map<string, Set<string>>();
  for (const role of roles) {
    const joined = new Set<string>();
    for (const field of storageMap.relations.values()) {
      copyProblem(rules, field, role, joined, problems);
      parentKeyProblem(rules, storageMap, field, role, problems);
    }
    for (const counter of derived.counters) derivedFigureProblem(rules, storageMap, { coordinate: counter.coordinate, of: counter.of, children: counter.source.kind === 'children', summed: undefined }, role, problems);
    for (const total of derived.totals) derivedFigureProblem(rules, storageMap, { coordinate: total.coordinate, of: total.of, children: true, summed: total.summedField }, role, problems);
    for (const type of types.values()) createPresetInHiddenCopyProblem(rules, storageMap, type, role, problems);
    if (joined.size > 0) joinedFor.set(role, joined);
  }
  const joinedIn = new Map([...joinedFor].map(([role, coordinates]) => [role, collectionsHolding(storageMap, coordinates)]));
  const copiesHiddenIn = new Map([...roles].map((role) => [role, collectionsWithHiddenCopies(rules, storageMap, role)]));
  return { rules: { ...rules, joinedFor, joinedIn, copiesHiddenIn }, problems };
}

/**
 * An @inverse list names, on each parent, the rows whose reference points at it (`Person.tasks` holds
 * every `Task.owner`): a role whose rule hides that reference has the list hidden with it, so every
 * other field reading the same array (an alias, a second join, a filter, an order, a group) is too.
 */
function hideMirrorsOfHidden(types: Map<string, TypeAccess>, storageMap: StorageMap, inverses: ReadonlyMap<string, MirroredReference>): void {
  for (const [coordinate, mirrored] of inverses) {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const parent = types.get(typeName);
    if (!parent) continue;
    const roles = new Map(parent.roles);
    for (const [role, roleRules] of parent.roles) {
      const truth = types.get(mirrored.truthType)?.roles.get(role)?.read;
      if (!roleRules.read || !truth || hiddenFieldHolding(storageMap, mirrored.truthType, mirrored.truthPath, truth.hidden) === undefined) continue;
      roles.set(role, { ...roleRules, read: { ...roleRules.read, hidden: new Set([...roleRules.read.hidden, fieldName]) } });
    }
    types.set(typeName, { ...parent, roles });
  }
}

/**
 * The collections whose documents hold a copy `role` may not see: its owner's rule hides a field at or
 * around the copy's path, or the rule of the collection's type hides one around where the owner sits;
 * or which of the target's documents a join keeps there turns on a value the target's rule hides (its
 * sort under a limit; a reverse join's key, where the role writes the target): whether a write's fan-out
 * reached a parent would tell it.
 */
function collectionsWithHiddenCopies(rules: AccessRules, storageMap: StorageMap, role: string): ReadonlySet<string> {
  const collections = new Set<string>();
  const hides = (typeName: string, path: string) => {
    const rule = readRuleOf(rules, typeName, role);
    const storage = storageMap.types.get(typeName);
    return rule !== undefined && rule !== 'all' && storage !== undefined && [...rule.hidden].some((name) => storedPathsOf(storage, name).some((stored) => pathsOverlap(stored, path)));
  };
  for (const field of storageMap.relations.values()) {
    const copyPath = field.shapes.snapshot?.path ?? field.shapes.embedded?.path;
    if (copyPath === undefined || !rules.collectionTypes.has(field.targetType)) continue;
    const keptByHidden = keepsRowsByHidden(rules, storageMap, field, role, hides);
    for (const { collection, prefix } of documentLocations(storageMap, field.typeName)) {
      const holder = rules.typeOfCollection.get(collection);
      if (keptByHidden || hides(field.typeName, copyPath) || (holder !== undefined && hides(holder, prefix === '' ? copyPath : `${prefix}.${copyPath}`))) collections.add(collection);
    }
  }
  return collections;
}

/**
 * Whether which of the target's documents an embedded copy's join keeps turns on a value `role` may not
 * see: its sort under a limit (the top two comments by a hidden score), or, for a role that writes the
 * target, a reverse join's key. Hidden by the target's rule, or by that of a type embedded in it
 * (`Comment.meta`, whose `rank` it sorts by).
 */
function keepsRowsByHidden(rules: AccessRules, storageMap: StorageMap, field: RelationField, role: string, hides: (typeName: string, path: string) => boolean): boolean {
  const join = field.shapes.embedded ? field.shapes.join : undefined;
  if (join === undefined) return false;
  const hidden = (path: string) => hides(field.targetType, path) || hiddenInCopyOnPath(rules, storageMap, field.targetType, path, role) !== undefined;
  if (join.limit !== undefined && join.sort.some((key) => key.path !== '_id' && hidden(key.path))) return true;
  const targetRules = rules.types.get(field.targetType)?.roles.get(role);
  const writesTarget = (targetRules?.create ?? targetRules?.update ?? targetRules?.delete) !== undefined;
  return writesTarget && join.direction === 'byReference' && hidden(join.foreignField);
}

function typeAccess(
  type: GraphQLObjectType,
  storage: TypeStorage,
  directives: readonly AccessDirective[],
  mutationFields: ReadonlySet<string>,
  refused: ReadonlySet<string> | undefined,
  problems: string[],
): TypeAccess | undefined {
  const byRole = new Map<string, MutableRoleRules>();
  const fields = type.getFields();
  const before = problems.length;
  let conditionProblems = 0;
  for (const directive of directives) {
    const report = (message: string) => void problems.push(`${type.name}: @access(roles: ${JSON.stringify(directive.roles)}) ${message}`);
    if (directive.roles.length === 0 || directive.roles.some((role) => role.trim() === '')) report('needs at least one role, and no empty one');
    if (directive.allow.length === 0) report('allows nothing; list what it allows, e.g. allow: [READ]');
    const allows = new Set(directive.allow.map((action) => action.toLowerCase() as AccessAction));
    if (storage.collection === undefined && (directive.where.length > 0 || directive.allow.some((action) => action !== 'READ'))) {
      report(`is on a type without @collection, whose rows are parts of other documents: it can only allow READ and hide fields; put where and writes on the @collection type that holds ${type.name}`);
      continue;
    }
    for (const name of [...directive.hide, ...directive.readOnly]) {
      if (!fields[name]) report(`names ${type.name}.${name}, which does not exist; the fields are ${Object.keys(fields).join(', ')}`);
    }
    if (directive.hide.length > 0 && !allows.has('read')) report('hides fields but does not allow READ; add READ to allow, or drop hide');
    for (const name of directive.hide) {
      const stored = storage.fields.get(name);
      // An embedded type's `_id` (a sub-document's own id) is in no reference, cursor or group key.
      if (storage.collection !== undefined && stored?.kind === 'stored' && stored.path === '_id') {
        report(`hides ${type.name}.${name}, the id: a row's id is in every reference to it, its place in a list (after) and the groups it falls in, so it cannot be kept from a role that reads the row; drop ${name} from hide, or take READ on ${type.name} from the role`);
      }
    }
    if (directive.readOnly.length > 0 && !allows.has('update')) report('makes fields read-only but does not allow UPDATE; add UPDATE to allow, or drop readOnly');
    if (directive.via.length > 0 && !['create', 'update', 'delete'].some((action) => allows.has(action as AccessAction))) report('names mutations in via but allows no write; via limits CREATE, UPDATE and DELETE');
    for (const name of directive.via) if (!mutationFields.has(name)) report(`via names Mutation.${name}, which does not exist`);
    // A condition refused here or by the storage map (whose problem says why) stays in the rule by its
    // name, so that the checks of counters and copies see a rule, not a type nobody reads.
    const placeholder = (match: (typeof directive.where)[number]): RowCondition => ({ fieldName: match.field, path: match.field, equals: { claim: match.claim ?? '' }, objectId: false, refused: true });
    const where = directive.where.map((match) => {
      if (refused?.has(`${type.name}.${match.field}`)) return placeholder(match);
      const condition = rowCondition(storage, fields[match.field], match);
      if (typeof condition !== 'string') return condition;
      report(condition);
      conditionProblems++;
      return placeholder(match);
    });
    for (const role of directive.roles) {
      let rules = byRole.get(role);
      if (!rules) byRole.set(role, (rules = {}));
      for (const action of allows) {
        if (rules[action]) {
          report(`gives role "${role}" ${action.toUpperCase()} a second time; a role has one rule per action on a type, so merge them`);
          continue;
        }
        Object.assign(rules, { [action]: actionRule(action, where, directive, storage) });
      }
    }
  }
  refuseWriteConditionsOnHidden(type.name, storage, byRole, problems);
  if (problems.length - conditionProblems > before) return undefined;
  for (const rules of byRole.values()) withinReadRows(rules);
  return { typeName: type.name, collection: storage.collection, roles: byRole };
}

/**
 * An update or delete rule may not pick rows by a field its role's READ rule hides (unless READ picks
 * rows by the same value): whether the write finds a row it reads, OK or NOT_FOUND, would tell that
 * row's hidden value.
 */
function refuseWriteConditionsOnHidden(typeName: string, storage: TypeStorage, byRole: ReadonlyMap<string, MutableRoleRules>, problems: string[]): void {
  for (const [role, rules] of byRole) {
    const read = rules.read;
    if (!read || read.hidden.size === 0) continue;
    for (const action of ['update', 'delete'] as const) {
      for (const condition of rules[action]?.where ?? []) {
        if (read.where.some((own) => own.path === condition.path && sameValue(own, condition))) continue;
        const hidden = [...read.hidden].find((name) => storedPathsOf(storage, name).some((stored) => pathsOverlap(stored, condition.path)));
        if (hidden === undefined) continue;
        problems.push(
          `${typeName}.${hidden}: role "${role}" may ${action.toUpperCase()} only where ${condition.fieldName} holds a value, but its READ rule hides ${hidden}, so whether an ${action} finds a row would tell that row's hidden value; add the same condition to its READ rule, drop it from the ${action.toUpperCase()} rule, or let the role read ${typeName}.${hidden}`,
        );
      }
    }
  }
}

/**
 * A create's condition on a value a snapshot copies (`authorOrg` at `author.orgId`) is checked once the
 * copy is filled from its source: whether the create is refused tells the source's value, so the role
 * must read that field on the source. The create's own conditions count, and its READ rule's, which a
 * generated create presets too.
 */
function createPresetInHiddenCopyProblem(rules: AccessRules, storageMap: StorageMap, type: TypeAccess, role: string, problems: string[]): void {
  const own = type.roles.get(role);
  if (!own?.create) return;
  for (const condition of [...own.create.where, ...(own.read?.where ?? [])]) {
    const hidden = hiddenInCopyOnPath(rules, storageMap, type.typeName, condition.path, role);
    if (hidden === undefined) continue;
    problems.push(
      `${type.typeName}.${condition.fieldName}: role "${role}" may CREATE only where ${condition.fieldName} is ${describeEquals(condition)}, but it is copied from ${hidden}, hidden from role "${role}", so whether a create is refused would tell that value; let the role read ${hidden}, or drop the condition from the role's CREATE and READ rules`,
    );
    return;
  }
}

/**
 * A role's changes stay within the rows it reads: its READ conditions filter its updates and deletes,
 * whose fields an update may not set. Otherwise an update would commit a row its author then cannot read
 * back, or tell one it cannot read apart from one that does not exist. (A generated create, which reads
 * its document back, takes them as presets: WriteUnit.insert; a hand-written one may write for others.)
 */
function withinReadRows(rules: MutableRoleRules): void {
  const read = rules.read?.where ?? [];
  if (read.length === 0) return;
  const joined = (own: readonly RowCondition[]) => [...own, ...read.filter((condition) => !own.some((mine) => mine.path === condition.path && sameValue(mine, condition)))];
  if (rules.delete) rules.delete = { ...rules.delete, where: joined(rules.delete.where) };
  if (rules.update) {
    rules.update = { ...rules.update, where: joined(rules.update.where), readOnlyPaths: [...new Set([...rules.update.readOnlyPaths, ...read.map((condition) => condition.path)])] };
  }
}

function actionRule(action: AccessAction, where: readonly RowCondition[], directive: AccessDirective, storage: TypeStorage): ActionRule | ReadRule | UpdateRule {
  const via = new Set(action === 'read' ? [] : directive.via);
  switch (action) {
    case 'read':
      return { where, via, hidden: new Set(directive.hide) };
    case 'update': {
      const readOnly = new Set([...directive.readOnly, ...where.map((condition) => condition.fieldName)]);
      return { where, via, readOnlyPaths: [...new Set([...readOnly].flatMap((name) => storedPathsOf(storage, name)).concat(where.map((condition) => condition.path)))] };
    }
    case 'create':
    case 'delete':
      return { where, via };
    default: {
      const never: never = action;
      throw new TypeError(`unknown access action ${String(never)}`);
    }
  }
}

/** The collections whose documents hold the relation fields `coordinates`: their types' own, or those they are embedded in. */
function collectionsHolding(storageMap: StorageMap, coordinates: ReadonlySet<string>): ReadonlySet<string> {
  const collections = new Set<string>();
  for (const coordinate of coordinates) {
    const owner = storageMap.relations.get(coordinate)?.typeName;
    for (const { collection } of owner === undefined ? [] : documentLocations(storageMap, owner)) collections.add(collection);
  }
  return collections;
}

/**
 * A relation whose data is a copy of a `@collection` type's documents (a snapshot, an embedded array)
 * shows them without the MongoDB read the filter goes into. For a role that reads the target only where
 * a condition holds: a snapshot copy holding every condition's field is checked on the copy; otherwise
 * the role reads the field by its join, which has the filter.
 */
function copyProblem(rules: AccessRules, field: RelationField, role: string, joined: Set<string>, problems: string[]): void {
  const { embedded, snapshot, join } = field.shapes;
  if (!embedded && !snapshot) return;
  if (!rules.collectionTypes.has(field.targetType)) return;
  const parent = readRuleOf(rules, field.typeName, role);
  if (parent === undefined || (parent !== 'all' && parent.hidden.has(field.fieldName))) return;
  const target = readRuleOf(rules, field.targetType, role);
  // A target the role may not read at all is refused at the field's path when it is read.
  if (target === undefined || target === 'all' || target.where.length === 0 || holdsRefusedCondition(target.where)) return;
  const checkableOnCopy = !embedded && snapshot !== undefined && target.where.every((condition) => condition.fieldName === 'id' || snapshot.fields.includes(condition.fieldName));
  if (checkableOnCopy) return;
  if (join) {
    joined.add(field.coordinate);
    return;
  }
  problems.push(
    `${field.coordinate}: role "${role}" reads ${field.targetType} only where ${describeWhere(target.where)}, which the embedded copies cannot be checked against; add @join to ${field.coordinate} so docjoin reads it with that filter for the role, or hide ${field.fieldName} from it (@access(roles: ["${role}"], allow: [READ], hide: ["${field.fieldName}"]) on ${field.typeName})`,
  );
}

/**
 * A child joins its parent's lists and counts through the key it stores (`Comment.postSlug` for
 * `Post.comments` by `slug`), so a create, or an update setting that key, checks it names a parent the
 * role reads (WriteUnit). It can check a parent's id, not another field of it: a field need not be
 * unique, and a child keyed by it joins every parent holding the value, some perhaps hidden from the role.
 */
function parentKeyProblem(rules: AccessRules, storageMap: StorageMap, field: RelationField, role: string, problems: string[]): void {
  const join = field.shapes.join;
  if (join?.direction !== 'byReference' || join.localField === '_id' || !rules.collectionTypes.has(field.typeName)) return;
  const childRules = rules.types.get(field.targetType)?.roles.get(role);
  const setsKey = childRules?.update !== undefined && !childRules.update.readOnlyPaths.some((path) => isAtOrUnder(join.foreignField, path));
  const actions = [...(childRules?.create ? ['create'] : []), ...(setsKey ? ['update'] : [])];
  if (actions.length === 0) return;
  const parent = readRuleOf(rules, field.typeName, role);
  if (parent === 'all' || (parent !== undefined && (parent.where.length === 0 || holdsRefusedCondition(parent.where)))) return;
  const reads = parent === undefined ? 'may not read it' : `reads ${field.typeName} only where ${describeWhere(parent.where)}`;
  const fixes = [`join ${field.coordinate} by "_id"`, `take ${actions.join(' and ').toUpperCase()} on ${field.targetType} from the role`];
  if (setsKey) {
    const child = storageMap.types.get(field.targetType);
    const key = child ? [...child.fields.keys()].find((name) => storedPathsOf(child, name).includes(join.foreignField)) : undefined;
    fixes.push(`make ${field.targetType}.${key ?? join.foreignField} readOnly in its UPDATE rule`);
  }
  problems.push(
    `${field.coordinate}: picks its ${field.targetType} children by the parent's "${join.localField}", and role "${role}" may ${actions.join(' and ')} ${field.targetType} but ${reads}; docjoin checks that a child's parent is one the role reads by the parent's id only, so ${fixes.slice(0, -1).join(', ')}, or ${fixes.at(-1)}`,
  );
}

/**
 * A counter stores the count of every counted document, a total the sum over every one. For a role that
 * reads the counted type only where conditions hold, that figure is its own only when each condition
 * follows from the role's rule on the counter's type: the counted documents point at the parent through
 * the key the condition compares (`Order.customer` = `sub`, counted on the Customer whose `id` = `sub`).
 * A total also needs the role to read the field it sums.
 */
function derivedFigureProblem(
  rules: AccessRules,
  storageMap: StorageMap,
  figure: { readonly coordinate: string; readonly of: string; readonly children: boolean; readonly summed: string | undefined },
  role: string,
  problems: string[],
): void {
  const [typeName, fieldName] = figure.coordinate.split('.') as [string, string];
  const parent = readRuleOf(rules, typeName, role);
  if (parent === undefined || (parent !== 'all' && parent.hidden.has(fieldName))) return;
  const relation = storageMap.relations.get(figure.of);
  if (!relation) return;
  const target = readRuleOf(rules, relation.targetType, role);
  const verb = figure.summed === undefined ? 'counts' : `sums ${figure.summed} of`;
  const fix = `hide it from the role (@access(roles: ["${role}"], allow: [READ], hide: ["${fieldName}"]) on ${typeName})`;
  // An @inverse list holds the rows whose reference points at the parent (hideMirrorsOfHidden): counted, it shows that reference.
  const mirrored = rules.inverses.get(relation.coordinate);
  const truth = mirrored && readRuleOf(rules, mirrored.truthType, role);
  const mirroredHidden = mirrored && truth && truth !== 'all' ? hiddenFieldHolding(storageMap, mirrored.truthType, mirrored.truthPath, truth.hidden) : undefined;
  if (mirrored && mirroredHidden !== undefined) {
    problems.push(
      `${figure.coordinate}: ${verb} the ${mirrored.truthType} documents of ${figure.of}, which mirrors ${mirrored.of}, by their ${mirrored.truthType}.${mirroredHidden}, hidden from role "${role}"; ${fix}, or let the role read ${mirrored.truthType}.${mirroredHidden}`,
    );
    return;
  }
  if (parent !== 'all' && relation.typeName === typeName && parent.hidden.has(relation.fieldName)) {
    problems.push(`${figure.coordinate}: ${verb} the documents of ${figure.of}, which is hidden from role "${role}"; ${fix}, or let the role read ${figure.of}`);
    return;
  }
  if (target === undefined) {
    problems.push(`${figure.coordinate}: ${verb} ${relation.targetType} documents, which role "${role}" may not read; ${fix}, or let the role read ${relation.targetType}`);
    return;
  }
  const keyHidden = target === 'all' ? undefined : hiddenKeyOf(storageMap, relation, target.hidden);
  if (keyHidden !== undefined) {
    problems.push(`${figure.coordinate}: ${verb} ${relation.targetType} documents by their key ${relation.targetType}.${keyHidden}, which is hidden from role "${role}"; ${fix}, or let the role read ${relation.targetType}.${keyHidden}`);
    return;
  }
  const copied = keyInPartlyReadCopy(rules, storageMap, relation, role);
  if (copied !== undefined) {
    problems.push(`${figure.coordinate}: ${verb} ${relation.targetType} documents by a key inside ${copied}; ${fix}`);
    return;
  }
  const join = relation.shapes.join;
  const keyInCopy = join?.direction === 'byReference' ? hiddenInCopyOnPath(rules, storageMap, relation.targetType, join.foreignField, role) : undefined;
  if (keyInCopy !== undefined) {
    problems.push(`${figure.coordinate}: ${verb} ${relation.targetType} documents by their key at "${join!.foreignField}", which reads ${keyInCopy}, hidden from role "${role}"; ${fix}, or let the role read ${keyInCopy}`);
    return;
  }
  const summedPaths = figure.summed === undefined ? [] : storedPathsOf(storageMap.types.get(relation.targetType)!, figure.summed);
  const summedInCopy = summedPaths.map((path) => hiddenInCopyOnPath(rules, storageMap, relation.targetType, path, role)).find((hidden) => hidden !== undefined);
  if (summedInCopy !== undefined) {
    problems.push(`${figure.coordinate}: sums ${relation.targetType}.${figure.summed}, which reads ${summedInCopy}, hidden from role "${role}"; ${fix}, or let the role read ${summedInCopy}`);
    return;
  }
  const summedHidden = figure.summed !== undefined && target !== 'all' ? hiddenFieldSharingPaths(storageMap, relation.targetType, figure.summed, target.hidden) : undefined;
  if (summedHidden !== undefined) {
    const stored = summedHidden === figure.summed ? '' : ` (stored with ${relation.targetType}.${summedHidden})`;
    problems.push(`${figure.coordinate}: sums ${relation.targetType}.${figure.summed}${stored}, which role "${role}" may not read; ${fix}, or let the role read ${relation.targetType}.${summedHidden}`);
    return;
  }
  if (target === 'all' || target.where.length === 0) return;
  if (holdsRefusedCondition(target.where)) return;
  const implied =
    parent !== 'all' &&
    join?.direction === 'byReference' &&
    figure.children &&
    target.where.every((condition) => condition.path === join.foreignField && parent.where.some((own) => own.path === join.localField && sameValue(own, condition)));
  if (!implied) {
    problems.push(
      `${figure.coordinate}: ${verb} every ${relation.targetType} of its ${typeName}, but role "${role}" reads only those where ${describeWhere(target.where)}; ${fix}, or give the role's ${typeName} rule the same claim on the key ${figure.of} joins by`,
    );
  }
}

/**
 * Whether a rule keeps a condition the start refused (a misspelt field, one the storage map refused):
 * its problem is reported, and what it would compare is unknown, so no check reasons from it.
 */
function holdsRefusedCondition(where: readonly RowCondition[]): boolean {
  return where.some((condition) => condition.refused);
}

/** The hidden field of the relation's target holding the key a reverse join picks children by, if one does. */
function hiddenKeyOf(storageMap: StorageMap, relation: RelationField, hidden: ReadonlySet<string>): string | undefined {
  const join = relation.shapes.join;
  return join?.direction === 'byReference' ? hiddenFieldHolding(storageMap, relation.targetType, join.foreignField, hidden) : undefined;
}

/** The field of `hidden` whose stored value holds `typeName`'s stored `path`, if one does. */
function hiddenFieldHolding(storageMap: StorageMap, typeName: string, path: string, hidden: ReadonlySet<string>): string | undefined {
  const storage = storageMap.types.get(typeName);
  if (!storage) return undefined;
  return [...hidden].find((fieldName) => storedPathsOf(storage, fieldName).some((stored) => isAtOrUnder(path, stored)));
}

/** The hidden field that is `fieldName` or is stored at, inside or around one of its stored paths: hiding it hides that value too. */
function hiddenFieldSharingPaths(storageMap: StorageMap, typeName: string, fieldName: string, hidden: ReadonlySet<string>): string | undefined {
  if (hidden.has(fieldName)) return fieldName;
  const storage = storageMap.types.get(typeName);
  if (!storage) return undefined;
  return storedPathsOf(storage, fieldName)
    .map((path) => hiddenFieldOverlapping(storageMap, typeName, path, hidden))
    .find((name) => name !== undefined);
}

/**
 * The copy a reverse join's key lies inside, when the role reads the copied type only in part or not at
 * all (the copies are of every row): the count by that key shows rows the role cannot see. A snapshot's
 * own key is the plain reference it copies from.
 */
function keyInPartlyReadCopy(rules: AccessRules, storageMap: StorageMap, relation: RelationField, role: string): string | undefined {
  const join = relation.shapes.join;
  if (join?.direction !== 'byReference') return undefined;
  for (const { field, copy, inTarget } of copiesOnPath(storageMap, relation.targetType, join.foreignField)) {
    if (copy.kind === 'snapshot' && inTarget === '_id') continue;
    const rule = readRuleOf(rules, field.targetType, role);
    if (rule === undefined) return `${field.coordinate} (a copy of ${field.targetType} at "${copy.path}"), which role "${role}" may not read`;
    if (rule !== 'all' && rule.where.length > 0) return `${field.coordinate} (a copy of ${field.targetType} at "${copy.path}"), whose rows role "${role}" reads only in part`;
  }
  return undefined;
}

/**
 * The field (`Meta.karma`) hidden from `role` in a copy (embedded or snapshot) that `typeName`'s stored
 * `path` runs into, at, around or inside the path's place in the copied documents, at any depth.
 */
function hiddenInCopyOnPath(rules: AccessRules, storageMap: StorageMap, typeName: string, path: string, role: string, seen: ReadonlySet<string> = new Set()): string | undefined {
  // A snapshot can map a path back onto one already followed (a type embedding one that copies it).
  const visit = `${typeName}\u0000${path}`;
  if (seen.has(visit)) return undefined;
  const within = new Set([...seen, visit]);
  for (const { field, copy, inTarget } of copiesOnPath(storageMap, typeName, path)) {
    if (inTarget === undefined || (copy.kind === 'snapshot' && inTarget === '_id')) continue;
    const rule = readRuleOf(rules, field.targetType, role);
    const hidden = rule === undefined || rule === 'all' ? undefined : hiddenFieldOverlapping(storageMap, field.targetType, inTarget, rule.hidden);
    if (hidden !== undefined) return `${field.targetType}.${hidden}`;
    const deeper = hiddenInCopyOnPath(rules, storageMap, field.targetType, inTarget, role, within);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** The field of `hidden` stored at, around or inside `typeName`'s stored `path`. */
function hiddenFieldOverlapping(storageMap: StorageMap, typeName: string, path: string, hidden: ReadonlySet<string>): string | undefined {
  const storage = storageMap.types.get(typeName);
  return storage && [...hidden].find((fieldName) => storedPathsOf(storage, fieldName).some((stored) => pathsOverlap(path, stored)));
}

export function describeWhere(where: readonly RowCondition[]): string {
  return where.map(describeCondition).join(' and ');
}
