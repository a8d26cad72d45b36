import { isInOperand } from '../gateway';

/** The keys of `values` that point somewhere: a null or missing key points at nothing. */
export function presentKeys(values: Iterable<unknown>): unknown[] {
  return [...values].filter((key) => key !== undefined && key !== null);
}

/**
 * The condition that `path` holds one of `keys`: one `$in`, but for a plain object with `$`-names
 * (`{ $oid: "…" }`, Extended JSON parsed as plain JSON, which children may hold as their parent does),
 * which MongoDB would read inside `$in` as an operator, refusing the whole command: that one by `$eq`.
 */
export function holdsOneOf(path: string, keys: readonly unknown[]): Record<string, unknown> {
  const operatorShaped = keys.filter((key) => !isInOperand(key));
  const inList = { [path]: { $in: keys.filter(isInOperand) } };
  return operatorShaped.length === 0 ? inList : { $or: [inList, ...operatorShaped.map((key) => ({ [path]: { $eq: key } }))] };
}
