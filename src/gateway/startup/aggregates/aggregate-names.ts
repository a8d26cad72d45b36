/**
 * The names of what docjoin generates for `@aggregate` fields over lists of one target type: the SDL
 * (aggregate-type-defs.ts), the startup checks and the resolvers all name them from here.
 */
export interface AggregateTypeNames {
  /** `OrderAggregate`: count, sum, avg, min, max, groupBy. */
  readonly aggregate: string;
  readonly sums: string;
  readonly averages: string;
  readonly minima: string;
  readonly maxima: string;
  /** `OrderGroup`: one group's key and figures. */
  readonly group: string;
  readonly groupKey: string;
  /** The enum `groupBy(by:)` takes: one value per groupable field. */
  readonly groupField: string;
}

export function aggregateTypeNames(targetType: string): AggregateTypeNames {
  return {
    aggregate: `${targetType}Aggregate`,
    sums: `${targetType}Sums`,
    averages: `${targetType}Averages`,
    minima: `${targetType}Minima`,
    maxima: `${targetType}Maxima`,
    group: `${targetType}Group`,
    groupKey: `${targetType}GroupKey`,
    groupField: `${targetType}GroupField`,
  };
}

/** How `groupBy(order:)` sorts the groups; ties (and KEYS) go by the keys, ascending, in `by` order. */
export const GROUP_ORDER_ENUM = 'AggregateGroupOrder';
export type GroupOrder = 'KEYS' | 'COUNT_DESC' | 'COUNT_ASC';
export const GROUP_ORDERS: readonly GroupOrder[] = ['KEYS', 'COUNT_DESC', 'COUNT_ASC'];

/** Groups one `groupBy` returns per parent unless `first` says otherwise, and the most it may ask for. */
export const DEFAULT_GROUPS = 20;
export const MAX_GROUPS = 1000;

/** The `groupBy(by:)` enum value of a field: `placedAt` → `PLACED_AT`. */
export function groupFieldValue(fieldName: string): string {
  return fieldName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** The GraphQL scalars an aggregate adds up and averages (sum, avg) and orders (min, max). */
export const NUMERIC_SCALARS: ReadonlySet<string> = new Set(['Int', 'Float', 'Long', 'Decimal']);
/** The numeric scalars whose sums (and a Decimal's means) are given in their own type, exactly as MongoDB computed them; others are Floats. */
export const EXACT_SCALARS: ReadonlySet<string> = new Set(['Long', 'Decimal']);
/**
 * The numeric scalars whose sums come out the same in any order: a running `@total` of one equals a
 * fresh `$sum`. Not Decimal: Decimal128 rounds a sum to 34 significant digits, so a running total can
 * keep a rounding a fresh sum no longer makes (adding 1E+40 and 0.01, then taking 1E+40 away, leaves 0).
 */
export const EXACT_SUMS: ReadonlySet<string> = new Set(['Int', 'Long']);

/** The type of a sum over a field of `scalar`, and of its mean. */
export function sumType(scalar: string): string {
  return EXACT_SCALARS.has(scalar) ? scalar : 'Float';
}

export function averageType(scalar: string): string {
  return scalar === 'Decimal' ? 'Decimal' : 'Float';
}
export const DATE_SCALARS: ReadonlySet<string> = new Set(['DateTime']);
