/**
 * The shape of a command's filter for the `x-docjoin-cost: commands` view: the same document with every
 * value replaced by `"?"`, operators and paths kept. `{ "host.id": { "$in": [ObjectId(…), …] } }` becomes
 * `{ "host.id": { "$in": "?" } }`, so the view shows how a command selected documents, never which ones
 * (no ids, names or cursor values leak into logs or screenshots).
 */
export type FilterShape = '?' | readonly FilterShape[] | { readonly [key: string]: FilterShape };

/**
 * The filter a command selected with: `filter` of a find, `query` of a count or findAndModify, the leading
 * `$match` stages of an aggregate (with those of its `$unionWith` branches over the same collection: an `$or`),
 * the `q` of an update's or delete's statement (several statements: an `$or` of theirs, each selecting
 * its own documents).
 */
export function commandFilterShape(commandName: string, command: Readonly<Record<string, unknown>>): FilterShape | undefined {
  switch (commandName) {
    case 'find':
      return isPlainObject(command.filter) ? shapeOf(command.filter) : undefined;
    case 'count':
      return isPlainObject(command.query) ? shapeOf(command.query) : undefined;
    case 'update':
    case 'delete': {
      const statements: unknown = commandName === 'update' ? command.updates : command.deletes;
      const filters = Array.isArray(statements) ? statements.flatMap((statement: unknown) => (isPlainObject(statement) && isPlainObject(statement.q) ? [shapeOf(statement.q)] : [])) : [];
      return filters.length === 0 ? undefined : filters.length === 1 ? filters[0] : { $or: filters };
    }
    case 'findAndModify':
      return isPlainObject(command.query) ? shapeOf(command.query) : undefined;
    case 'aggregate': {
      const pipeline: unknown[] = Array.isArray(command.pipeline) ? command.pipeline : [];
      const first = leadingMatch(pipeline);
      if (first === undefined) return undefined;
      // Per-key branches of one batch (`$unionWith` the same collection, each with its own `$match`): an $or of
      // them all, a branch opening without one selecting everything.
      const branches = pipeline.flatMap((stage) => {
        const union = isPlainObject(stage) && isPlainObject(stage.$unionWith) ? stage.$unionWith : undefined;
        if (!union || union.coll !== command.aggregate) return [];
        return [(Array.isArray(union.pipeline) ? leadingMatch(union.pipeline) : undefined) ?? {}];
      });
      return branches.length === 0 ? first : { $or: [first, ...branches] };
    }
    default:
      return undefined;
  }
}

/**
 * What an aggregate's `$lookup`s select, nested as they are: each one's collection, and the shape of how
 * it picks documents (its `foreignField` equal to the parent's `localField`, with the `$match` stages
 * that open its pipeline: the access rules' row filter and the page's filter). undefined when the command
 * has none.
 */
export function commandLookupShapes(commandName: string, command: Readonly<Record<string, unknown>>): LookupShape[] | undefined {
  if (commandName !== 'aggregate' || !Array.isArray(command.pipeline)) return undefined;
  const lookups = lookupShapesIn(command.pipeline);
  return lookups.length === 0 ? undefined : lookups;
}

/** One `$lookup` of an aggregate: the collection it reads and how it selected there. */
export interface LookupShape {
  readonly from: string;
  readonly filter: FilterShape;
  readonly lookups?: readonly LookupShape[];
}

function lookupShapesIn(pipeline: readonly unknown[]): LookupShape[] {
  return pipeline.flatMap((stage) => {
    const lookup = isPlainObject(stage) && isPlainObject(stage.$lookup) ? stage.$lookup : undefined;
    if (!lookup || typeof lookup.from !== 'string') return [];
    const inner: unknown[] = Array.isArray(lookup.pipeline) ? lookup.pipeline : [];
    const joinedBy = typeof lookup.foreignField === 'string' ? [{ [lookup.foreignField]: '?' } as FilterShape] : [];
    const matches = [...joinedBy, ...leadingMatches(inner)];
    const nested = lookupShapesIn(inner);
    return [{ from: lookup.from, filter: matches.length === 0 ? {} : matches.length === 1 ? matches[0]! : { $and: matches }, ...(nested.length > 0 && { lookups: nested }) }];
  });
}

/** The shapes of the `$match` stages a pipeline opens with (MongoDB merges them into one filter). */
function leadingMatches(pipeline: readonly unknown[]): FilterShape[] {
  const shapes: FilterShape[] = [];
  for (const stage of pipeline) {
    if (!isPlainObject(stage) || !isPlainObject(stage.$match)) break;
    shapes.push(shapeOf(stage.$match));
  }
  return shapes;
}

/** The shape of the `$match` stages a pipeline opens with: one, or an `$and` of several (the access rules' row filter comes first). */
function leadingMatch(pipeline: readonly unknown[]): FilterShape | undefined {
  const matches = leadingMatches(pipeline);
  return matches.length === 0 ? undefined : matches.length === 1 ? matches[0] : { $and: matches };
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
