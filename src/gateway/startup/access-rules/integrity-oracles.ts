import type { IndexDescription } from '../../documents/index-description';
import type { StorageMap, TypeStorage } from '../storage-map/storage-map-types';
import { readRuleOf, type AccessRules, type RoleRules } from './access-rule-types';
import { describeWhere, storedPathsOf } from './build-access-rules';

/** A by-key reference to a type: the relation, and the collection whose documents hold it. */
export interface HeldReference {
  readonly coordinate: string;
  readonly collection: string;
}

/**
 * Where a refusal that keeps the data whole tells a role about rows it may not read: a unique index
 * refusing a value the role may write (another row holds it: "this email is taken"), and a delete
 * refused while a row the role may not read still references the document. Refusing these rules at
 * startup would forbid every signup form, so docjoin warns, once per role and field, with the change
 * that keeps the fact unknown.
 */
export async function integrityOracleWarnings(
  rules: AccessRules,
  storageMap: StorageMap,
  existing: ReadonlySet<string>,
  indexesOf: (collection: string) => Promise<IndexDescription[]>,
  referencesTo: (typeName: string) => readonly HeldReference[],
): Promise<string[]> {
  const warnings: string[] = [];
  for (const type of rules.types.values()) {
    const storage = storageMap.types.get(type.typeName);
    if (type.collection === undefined || !storage || !existing.has(type.collection)) continue;
    const unique = (await indexesOf(type.collection)).filter((index) => index.unique && !('_id' in index.key));
    for (const [role, rule] of type.roles) {
      for (const index of unique) warnings.push(...uniqueIndexOracles(rules, storage, role, rule, index));
      if (rule.delete) warnings.push(...referenceOracles(rules, type.typeName, role, referencesTo(type.typeName)));
    }
  }
  return warnings;
}

function uniqueIndexOracles(rules: AccessRules, storage: TypeStorage, role: string, rule: RoleRules, index: IndexDescription): string[] {
  if (!rule.create && !rule.update) return [];
  const read = readRuleOf(rules, storage.typeName, role);
  const keyText = `{ ${Object.keys(index.key).map((path) => `${JSON.stringify(path)}: ${String(index.key[path])}`).join(', ')} }`;
  const warnings: string[] = [];
  for (const path of Object.keys(index.key)) {
    const fieldName = [...storage.fields.keys()].find((name) => storedPathsOf(storage, name).includes(path));
    if (fieldName === undefined) continue;
    const writes = [rule.create && !rule.create.where.some((condition) => condition.path === path) ? 'create' : undefined, rule.update && !rule.update.readOnlyPaths.includes(path) ? 'update' : undefined].filter(
      (action) => action !== undefined,
    );
    if (writes.length === 0) continue;
    const unseen = read === undefined ? `may not read ${storage.typeName}` : read === 'all' ? undefined : read.hidden.has(fieldName) ? `may not see ${fieldName}` : read.where.length > 0 ? `reads ${storage.typeName} only where ${describeWhere(read.where)}` : undefined;
    if (unseen === undefined) continue;
    warnings.push(
      `${storage.typeName}.${fieldName}: role "${role}" may ${writes.join(' and ')} it and ${unseen}, and the unique index ${keyText} refuses a value another ${storage.typeName} holds, so a refused write tells the role that value is taken; if that must stay unknown, keep the role from writing ${fieldName} (readOnly, or no CREATE)`,
    );
  }
  return warnings;
}

function referenceOracles(rules: AccessRules, typeName: string, role: string, references: readonly HeldReference[]): string[] {
  const warnings: string[] = [];
  for (const reference of references) {
    const holderType = rules.typeOfCollection.get(reference.collection);
    const holder = holderType === undefined ? 'all' : readRuleOf(rules, holderType, role);
    const referenceField = reference.coordinate.slice(reference.coordinate.indexOf('.') + 1);
    const unseen =
      holder === undefined
        ? `may not read ${holderType}`
        : holder === 'all'
          ? undefined
          : holder.where.length > 0
            ? `reads ${holderType} only where ${describeWhere(holder.where)}`
            : holder.hidden.has(referenceField) && reference.coordinate.startsWith(`${holderType}.`)
              ? `may not see ${reference.coordinate}`
              : undefined;
    if (unseen === undefined) continue;
    warnings.push(
      `${typeName}: role "${role}" may delete it and ${unseen}, which references ${typeName} (${reference.coordinate}), and a delete is refused while a reference remains, so the refusal tells the role that such a row points at its ${typeName}; if that must stay unknown, take DELETE on ${typeName} from the role`,
    );
  }
  return warnings;
}
