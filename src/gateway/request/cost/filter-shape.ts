/**
 * The shape of a command's filter for the `x-docjoin-cost: commands` view: the same document with every
 * value replaced by `"?"`, operators and paths kept. `{ "host.id": { "$in": [ObjectId(…), …] } }` becomes
 * `{ "host.id": { "$in": "?" } }`, so the view shows how a command selected documents, never which ones
 * (no ids, names or cursor values leak into logs or screenshots).
 */
export type FilterShape = '?' | readonly FilterShape[] | { readonly [key: string]: FilterShape };

/** The filter a command selected with: `filter` of a find, `query` of a findAndModify, the leading `$match` of an aggregate. */
export function commandFilterShape(commandName: string, command: Readonly<Record<string, unknown>>): FilterShape | undefined {
  switch (commandName) {
    case 'find':
    case 'count':
    case 'delete':
    case 'update':
      return isPlainObject(command.filter) ? shapeOf(command.filter) : undefined;
    case 'findAndModify':
      return isPlainObject(command.query) ? shapeOf(command.query) : undefined;
    case 'aggregate': {
      const first: unknown = Array.isArray(command.pipeline) ? command.pipeline[0] : undefined;
      return isPlainObject(first) && isPlainObject(first.$match) ? shapeOf(first.$match) : undefined;
    }
    default:
      return undefined;
  }
}

/** `$and`/`$or`/`$nor` keep their branches; operator documents (and `$elemMatch`-like operands) keep their keys; every value is `"?"`. */
export function shapeOf(filter: Readonly<Record<string, unknown>>): FilterShape {
  const shape: Record<string, FilterShape> = {};
  for (const [key, value] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      shape[key] = value.map((branch) => (isPlainObject(branch) ? shapeOf(branch) : '?'));
    } else if (isPlainObject(value) && (key.startsWith('$') || isOperatorDocument(value))) {
      shape[key] = shapeOf(value);
    } else {
      shape[key] = '?';
    }
  }
  return shape;
}

function isOperatorDocument(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((name) => name.startsWith('$'));
}

/** A document literal, not a BSON value (ObjectId, Date, Decimal128, … are values). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
