import type { IndexDescription } from '../../documents/index-description';
import type { AccessRules } from './access-rule-types';

/**
 * A READ rule's `where` is added to every read of its type: warns when no index of the collection
 * starts with one of its paths, since every list the role reads would then scan the collection, with
 * the createIndex that would serve it.
 */
export async function checkAccessIndexes(rules: AccessRules, existing: ReadonlySet<string>, indexesOf: (collection: string) => Promise<IndexDescription[]>): Promise<string[]> {
  const warnings: string[] = [];
  for (const type of rules.types.values()) {
    if (type.collection === undefined || !existing.has(type.collection)) continue;
    for (const [role, rule] of type.roles) {
      const paths = rule.read?.where.map((condition) => condition.path) ?? [];
      if (paths.length === 0 || paths.includes('_id')) continue;
      const indexes = await indexesOf(type.collection);
      if (indexes.some((index) => paths.includes(Object.keys(index.key)[0] ?? ''))) continue;
      warnings.push(
        `${type.typeName}: role "${role}" reads only where ${paths.join(' and ')} ${paths.length === 1 ? 'matches' : 'match'} its claims, and no index of ${type.collection} starts with ${paths.length === 1 ? 'it' : 'one of them'}, so each of its reads scans the collection; create one with db.${type.collection}.createIndex({ ${JSON.stringify(paths[0])}: 1 })`,
      );
    }
  }
  return warnings;
}
