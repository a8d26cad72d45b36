import { EJSON } from 'bson';

/**
 * A string equal for equal BSON values, whatever the key order or the class instances:
 * `{id: ObjectId(x), name: "A"}` and `{name: "A", id: new ObjectId(x)}` give the same string.
 * Numbers compare as the driver promotes them when it reads (an Int32, a Double or a Long that a
 * JavaScript number holds exactly is that number), so a copy read promoted equals its source read
 * with its BSON types kept, exactly when the gateway would answer both alike.
 */
export function canonicalValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(canonicalJson(EJSON.serialize({ v: value }, { relaxed: false })));
}

export function sameValue(a: unknown, b: unknown): boolean {
  // Two primitives are equal only as themselves (NaN included); a number and a wrapped one need the long way.
  if (isPrimitive(a) && isPrimitive(b)) return Object.is(a, b) || a === b;
  return canonicalValue(a) === canonicalValue(b);
}

/** Deep copy through BSON, so ObjectIds and Dates stay what they are. */
export function cloneValue<T>(value: T): T {
  return (EJSON.deserialize(EJSON.serialize({ v: value }, { relaxed: false }), { relaxed: false }) as { v: T }).v;
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

/** Canonical Extended JSON: keys sorted, numbers as their promoted value's. */
function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (value === null || typeof value !== 'object') return value;
  const promoted = promotedNumber(value as Record<string, unknown>);
  if (promoted !== undefined) return (EJSON.serialize({ v: promoted }, { relaxed: false }) as { v: unknown }).v;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = canonicalJson((value as Record<string, unknown>)[key]);
  return sorted;
}

/** The JavaScript number the driver would read `{$numberDouble}`, `{$numberInt}` or a safe `{$numberLong}` as. */
function promotedNumber(json: Record<string, unknown>): number | undefined {
  const digits = json.$numberDouble ?? json.$numberInt ?? json.$numberLong;
  if (typeof digits !== 'string') return undefined;
  const number = Number(digits);
  return json.$numberLong !== undefined && !Number.isSafeInteger(number) ? undefined : number;
}
