import { badUserInput } from '../../errors/public-error-code';
import { declaredStrategies, READ_STRATEGIES, type ReadStrategy, type StorageMap } from '../../startup/storage-map/storage-map-types';

export const STRATEGY_HEADER = 'x-docjoin-strategy';

export type StrategyOverrides = ReadonlyMap<string, ReadStrategy>;
export const NO_OVERRIDES: StrategyOverrides = new Map();

/**
 * Parses `x-docjoin-strategy: Book.authors=join,Post.recentComments=join` against the storage map.
 * Every mistake is a BAD_USER_INPUT whose message lists the valid choices.
 */
export function parseStrategyOverrides(header: string | undefined, storageMap: StorageMap): StrategyOverrides {
  if (header === undefined || header.trim() === '') return NO_OVERRIDES;
  const overrides = new Map<string, ReadStrategy>();
  for (const entry of header.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const match = /^([A-Za-z_]\w*\.[A-Za-z_]\w*)\s*=\s*(\w+)$/.exec(entry);
    if (!match) throw headerError(`"${entry}" is not of the form Type.field=strategy`, storageMap);
    const coordinate = match[1]!;
    const strategy = match[2]!.toLowerCase();
    const field = storageMap.relations.get(coordinate);
    if (!field) throw headerError(`unknown field "${coordinate}"`, storageMap);
    const declared = declaredStrategies(field);
    if (!(READ_STRATEGIES as readonly string[]).includes(strategy)) {
      throw headerError(`unknown strategy "${match[2]}" for ${coordinate}; choose ${declared.join(' or ')}`, storageMap);
    }
    if (!declared.includes(strategy as ReadStrategy)) {
      throw headerError(`${coordinate} does not declare a @${strategy} shape; choose ${declared.join(' or ')}`, storageMap);
    }
    const previous = overrides.get(coordinate);
    if (previous !== undefined && previous !== strategy) throw headerError(`${coordinate} is given twice (${previous} and ${strategy})`, storageMap);
    overrides.set(coordinate, strategy as ReadStrategy);
  }
  return overrides;
}

/**
 * A header value that moves one field of this storage map off its default strategy (the first field with
 * a choice), for hints such as the IDE's; undefined when no field has a choice.
 */
export function exampleStrategyOverride(storageMap: StorageMap): string | undefined {
  for (const field of storageMap.relations.values()) {
    const other = declaredStrategies(field).find((strategy) => strategy !== field.defaultStrategy);
    if (other !== undefined) return `${field.coordinate}=${other}`;
  }
  return undefined;
}

function headerError(problem: string, storageMap: StorageMap) {
  const choices = [...storageMap.relations.values()]
    .filter((field) => declaredStrategies(field).length > 1)
    .map((field) => `${field.coordinate}=${declaredStrategies(field).join('|')}`)
    .join(', ');
  return badUserInput(`${STRATEGY_HEADER}: ${problem}. Fields with a choice of strategy: ${choices}`, { header: STRATEGY_HEADER }, { beforeExecution: true });
}
