import type { IndexDescription } from '../../documents/index-description';
import { filterPaths } from '../../documents/filter-paths';
import type { StoredDocument } from '../../documents/stored-document';
import { isAtOrUnder, pathsOverlap } from '../../documents/read-path';
import type { StorageMap, TypeStorage } from '../storage-map/storage-map-types';
import { readRuleOf, sameValue, type AccessRules, type RoleRules } from './access-rule-types';
import { describeWhere } from './build-access-rules';
import { storedPathsOf } from '../storage-map/stored-paths';
import type { TotalRule } from '../write-model/write-model-types';

/** A by-key reference to a type: the relation, and the collection whose documents hold it at `path`. */
export interface HeldReference {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
}

/** What comparing `typeName` documents by the stored `path` would show `role` that it may not see (operation-access.ts comparisonRefusal). */
export type RoleComparisonRefusal = (role: string, typeName: string, path: string) => string | undefined;

/**
 * Where a refusal that keeps the data whole tells a role about rows it may not read, or values it may
 * not see: a unique index refusing a value the role may write (another row holds it: "this email is
 * taken"; a partial one, also whether that row matches its filter), a collection validator reading a
 * value the role may not see (whether a write passes it tells that value), a delete refused while a
 * row the role may not read still references the document, and a write refused because a Long total
 * it moves, which the role may not see, would pass the largest Long. Refusing these rules at startup
 * would forbid every signup form, so docjoin warns, per role, unique index key, validator, reference
 * and total, with the change that keeps the fact unknown.
 */
export async function integrityOracleWarnings(
  rules: AccessRules,
  storageMap: StorageMap,
  totals: readonly TotalRule[],
  existing: ReadonlySet<string>,
  indexesOf: (collection: string) => Promise<IndexDescription[]>,
  referencesTo: (typeName: string) => readonly HeldReference[],
  refusal: RoleComparisonRefusal,
  validators: ReadonlyMap<string, StoredDocument>,
): Promise<string[]> {
  const warnings: string[] = totals.flatMap((total) => totalOverflowOracles(rules, total, refusal));
  for (const type of rules.types.values()) {
    const storage = storageMap.types.get(type.typeName);
    if (type.collection === undefined || !storage || !existing.has(type.collection)) continue;
    const unique = (await indexesOf(type.collection)).filter((index) => index.unique && !('_id' in index.key));
    const validator = validators.get(type.collection);
    for (const [role, rule] of type.roles) {
      for (const index of unique) warnings.push(...uniqueIndexOracles(rules, storage, role, rule, index, refusal));
      if (validator) warnings.push(...validatorOracles(storage, type.collection, role, rule, validator, refusal));
      if (rule.delete) warnings.push(...referenceOracles(rules, type.typeName, role, referencesTo(type.typeName), refusal));
    }
  }
  return warnings;
}

/** A validator reading a value `role` may not see, where the role creates or updates documents it checks. */
function validatorOracles(storage: TypeStorage, collection: string, role: string, rule: RoleRules, validator: StoredDocument, refusal: RoleComparisonRefusal): string[] {
  const writes = [rule.create ? 'create' : undefined, rule.update ? 'update' : undefined].filter((action) => action !== undefined);
  if (writes.length === 0) return [];
  // A validator reads the one document written, a row of the role's own: what it may not see there is what a refusal tells.
  for (const path of filterPaths(validator)) {
    const shown = refusal(role, storage.typeName, path);
    if (shown === undefined) continue;
    return [
      `${storage.typeName}: role "${role}" may ${writes.join(' and ')} it, and the validator of collection "${collection}" reads "${path}" (${shown}), so whether a write passes the validator tells the role that value; if it must stay unknown, drop "${path}" from the validator, or keep the role from writing ${storage.typeName}`,
    ];
  }
  return [];
}

/** Why `role` cannot see the value at `path` of some `typeName` documents: it reads none, or only some, of them, or comparing by it is refused. */
function unseenBy(rules: AccessRules, role: string, typeName: string, path: string, refusal: RoleComparisonRefusal): string | undefined {
  const read = readRuleOf(rules, typeName, role);
  if (read === undefined) return `may not read ${typeName}`;
  const shown = refusal(role, typeName, path);
  if (shown !== undefined) return `may not see ${shown}`;
  return read !== 'all' && read.where.length > 0 ? `reads ${typeName} only where ${describeWhere(read.where)}` : undefined;
}

function uniqueIndexOracles(rules: AccessRules, storage: TypeStorage, role: string, rule: RoleRules, index: IndexDescription, refusal: RoleComparisonRefusal): string[] {
  if (!rule.create && !rule.update) return [];
  // Unique within the rows the role reads ({ tenant, email } under `where tenant`, which creates preset and updates cannot change): a clash is with a row it sees.
  const where = rule.read?.where ?? [];
  const keys = Object.keys(index.key);
  // A partial index compares only the rows its filter matches: a clash then also tells that a row holding the value matches it.
  const partial = index.partialFilter ? partialFilterUnseen(storage, role, index.partialFilter, refusal) : undefined;
  const presetAlike = (condition: (typeof where)[number]) => !rule.create || rule.create.where.some((preset) => preset.path === condition.path && sameValue(preset, condition));
  const withinOwnRows = where.length > 0 && where.every((condition) => keys.includes(condition.path) && presetAlike(condition));
  // ...unless one of its keys is a value the role may not see in its own rows either.
  if (withinOwnRows && partial === undefined && keys.every((path) => refusal(role, storage.typeName, path) === undefined)) return [];
  const keyText = `{ ${Object.keys(index.key).map((path) => `${JSON.stringify(path)}: ${String(index.key[path])}`).join(', ')} }`;
  const warnings: string[] = [];
  for (const path of Object.keys(index.key)) {
    // The field that stores the path, or the embedded document holding it.
    const fieldName = [...storage.fields.keys()].find((name) => storedPathsOf(storage, name).some((stored) => isAtOrUnder(path, stored)));
    if (fieldName === undefined) continue;
    const creates = rule.create !== undefined && !rule.create.where.some((condition) => isAtOrUnder(path, condition.path));
    const updates = rule.update !== undefined && !rule.update.readOnlyPaths.some((readOnly) => pathsOverlap(path, readOnly));
    const writes = [creates ? 'create' : undefined, updates ? 'update' : undefined].filter((action) => action !== undefined);
    if (writes.length === 0) continue;
    // Within the role's own rows, a clash tells only what the role may not see in them.
    const unseen = withinOwnRows && refusal(role, storage.typeName, path) === undefined ? undefined : unseenBy(rules, role, storage.typeName, path, refusal);
    const keepFromWriting = `keep the role from writing ${fieldName} (readOnly, or no CREATE)`;
    if (partial !== undefined) {
      const taken = unseen === undefined ? '' : `, and as it ${unseen}, that the value is taken`;
      warnings.push(
        `${storage.typeName}.${fieldName}: role "${role}" may ${writes.join(' and ')} it, and the unique index ${keyText} compares only the rows its partial filter matches, which reads ${partial}: a refused write tells the role that the row holding the value matches that filter${taken}; if that must stay unknown, drop that field from the index's partialFilterExpression, or ${keepFromWriting}`,
      );
    } else if (unseen !== undefined) {
      warnings.push(
        `${storage.typeName}.${fieldName}: role "${role}" may ${writes.join(' and ')} it and ${unseen}, and the unique index ${keyText} refuses a value another ${storage.typeName} holds, so a refused write tells the role that value is taken; if that must stay unknown, ${keepFromWriting}`,
      );
    }
  }
  return warnings;
}

/** A value a partial index's filter reads that `role` may not see (`User.active, which is hidden from role …`); undefined when it sees them all. */
function partialFilterUnseen(storage: TypeStorage, role: string, partialFilter: Readonly<Record<string, unknown>>, refusal: RoleComparisonRefusal): string | undefined {
  return filterPaths(partialFilter)
    .map((path) => refusal(role, storage.typeName, path))
    .find((shown) => shown !== undefined);
}

function referenceOracles(rules: AccessRules, typeName: string, role: string, references: readonly HeldReference[], refusal: RoleComparisonRefusal): string[] {
  const warnings: string[] = [];
  for (const reference of references) {
    const holderType = rules.typeOfCollection.get(reference.collection);
    const unseen = holderType === undefined ? undefined : unseenBy(rules, role, holderType, reference.path, refusal);
    if (unseen === undefined) continue;
    warnings.push(
      `${typeName}: role "${role}" may delete it and ${unseen}; ${reference.coordinate} there references ${typeName}, and a delete is refused while a reference remains, so the refusal tells the role that a row it cannot see points at its ${typeName}; if that must stay unknown, take DELETE on ${typeName} from the role`,
    );
  }
  return warnings;
}

/**
 * A Long @total past 2^63 - 1 is refused (BAD_USER_INPUT, write-errors.ts totalOverflow), so a role
 * that moves a total it may not see learns it, bit by bit, from which of its writes are refused.
 */
function totalOverflowOracles(rules: AccessRules, total: TotalRule, refusal: RoleComparisonRefusal): string[] {
  if (total.scalar !== 'Long') return [];
  const parentType = total.coordinate.slice(0, total.coordinate.indexOf('.'));
  const childAccess = rules.types.get(total.childType);
  if (!childAccess) return [];
  const warnings: string[] = [];
  for (const [role, rule] of childAccess.roles) {
    const moves = [
      rule.create ? 'create' : undefined,
      rule.update && [total.summedPath, total.childKey].some((path) => !rule.update!.readOnlyPaths.some((readOnly) => pathsOverlap(path, readOnly))) ? 'update' : undefined,
      rule.delete ? 'delete' : undefined,
    ].filter((action) => action !== undefined);
    if (moves.length === 0 || readRuleOf(rules, parentType, role) === undefined) continue;
    if (refusal(role, parentType, total.path) === undefined) continue;
    const actions = moves.length === 1 ? moves[0] : `${moves.slice(0, -1).join(', ')} and ${moves.at(-1)}`;
    warnings.push(
      `${total.coordinate}: role "${role}" may ${actions} ${total.childType} rows, which move this Long @total, and may not see it; a write that would carry it past the largest Long is refused, so which writes are refused tells the role the total; if that must stay unknown, keep the role from writing ${total.childType}.${total.summedField} (no CREATE or DELETE, readOnly on UPDATE), or let it read ${total.coordinate}`,
    );
  }
  return warnings;
}
