import { badUserInput } from '../../errors/public-error-code';
import { declaredStrategies, READ_STRATEGIES, type ReadStrategy, type StorageMap } from '../../startup/storage-map/storage-map-types';
import { quoteInput } from '../../errors/quote-input';

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
    if (!match) throw headerError(`${quoteInput(entry)} is not of the form Type.field=strategy`, storageMap);
    const coordinate = match[1]!;
    const strategy = match[2]!.toLowerCase();
    const field = storageMap.relations.get(coordinate);
    if (!field) {
      const [typeName, fieldName] = coordinate.split('.') as [string, string];
      const other = storageMap.types.get(typeName)?.fields.get(fieldName);
      throw headerError(other ? `${coordinate} is not a relation: only a relation field is read by a strategy` : `unknown field ${quoteInput(coordinate)}`, storageMap);
    }
    const declared = declaredStrategies(field);
    if (!(READ_STRATEGIES as readonly string[]).includes(strategy)) {
      throw headerError(`unknown strategy ${quoteInput(match[2])} for ${coordinate}; choose ${oneOf(declared)}`, storageMap);
    }
    if (!declared.includes(strategy as ReadStrategy)) {
      const why = strategy !== 'lookup' ? `does not declare a @${strategy} shape` : field.connection ? 'is a connection, which lookup cannot read' : 'has no @join to read by lookup';
      throw headerError(`${coordinate} ${why}; choose ${oneOf(declared)}`, storageMap);
    }
    const previous = overrides.get(coordinate);
    if (previous !== undefined && previous !== strategy) throw headerError(`${coordinate} is given twice (${previous} and ${strategy})`, storageMap);
    overrides.set(coordinate, strategy as ReadStrategy);
  }
  return overrides;
}

/**
 * A header value that moves one field of this storage map off its default strategy, for hints such as
 * the IDE's: the first field with another declared shape (the storage choice the schema made), else
 * the first join that can be read by lookup; undefined when no field has a choice.
 */
export function exampleStrategyOverride(storageMap: StorageMap): string | undefined {
  let lookup: string | undefined;
  for (const field of storageMap.relations.values()) {
    const others = declaredStrategies(field).filter((strategy) => strategy !== field.defaultStrategy);
    const shape = others.find((strategy) => strategy !== 'lookup');
    if (shape !== undefined) return `${field.coordinate}=${shape}`;
    if (others.length > 0) lookup ??= `${field.coordinate}=${others[0]}`;
  }
  return lookup;
}

/** `join`, `join or lookup`, `join, snapshot or lookup`. */
function oneOf(strategies: readonly string[]): string {
  return strategies.length <= 1 ? strategies.join('') : `${strategies.slice(0, -1).join(', ')} or ${strategies.at(-1)}`;
}

function headerError(problem: string, storageMap: StorageMap) {
  const choices = [...storageMap.relations.values()]
    .filter((field) => declaredStrategies(field).length > 1)
    .map((field) => `${field.coordinate}=${declaredStrategies(field).join('|')}`)
    .join(', ');
  const offered = choices === '' ? 'No field of this schema has a choice of strategy (only a field with @join can be read another way)' : `Fields with a choice of strategy: ${choices}`;
  return badUserInput(`${STRATEGY_HEADER}: ${problem}. ${offered}`, { header: STRATEGY_HEADER }, { beforeExecution: true });
}
