import type { Collation } from './collation';

/**
 * What one operation adds to how its filters, sorts and expressions evaluate: the collation its
 * strings compare under and the `let` variables its expressions read as `$$name`. Operations
 * without either pass nothing, and every comparison keeps its binary fast path.
 */
export interface QueryScope {
  /** The operation's `collation` option or its collection's (or view's) default; none: binary. */
  readonly collation?: Collation;
  /** The operation's `let` variables, already evaluated. */
  readonly variables?: Readonly<Record<string, unknown>>;
}
