import { isInOperand } from '../gateway';

/**
 * The keys of `values` a `$in` can look up: present (a null or missing key points at nothing), and no
 * plain object with `$`-names (`{ $oid: "…" }`, Extended JSON parsed as plain JSON), which MongoDB
 * would read as an operator, refusing the whole command, and which no stored `_id` equals.
 */
export function lookupKeys(values: Iterable<unknown>): unknown[] {
  return [...values].filter((key) => key !== undefined && key !== null && isInOperand(key));
}
