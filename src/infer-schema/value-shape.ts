/**
 * The shape of sampled documents: for each field, which kinds of value it held and how often, merged
 * over every document (and every element of an array). Pure: the draft reads types, nullability and
 * sub-documents from it. Documents are read with `promoteValues: false`, so Int32, Long and Double
 * arrive as what they are stored as (a Double 3.0 is a Float, not an Int).
 */

export type ValueKind = 'string' | 'boolean' | 'int' | 'long' | 'double' | 'decimal' | 'date' | 'objectId' | 'null' | 'object' | 'array' | 'unsupported';

export interface ValueShape {
  /** Values seen at this place (a field present in a document, or an array element), nulls included. */
  count: number;
  readonly kinds: Map<ValueKind, number>;
  /** BSON type names of the values no scalar docjoin knows serves (Binary, Timestamp, …). */
  readonly unsupported: Set<string>;
  /** Long values outside GraphQL Int's 32 bits. */
  wideLongs: number;
  /** The merged shape of the object values. */
  object: ObjectShape | undefined;
  /** The merged shape of the arrays' elements. */
  elements: ValueShape | undefined;
}

export interface ObjectShape {
  /** How many objects were merged. */
  count: number;
  /** By key, in the order keys were first seen. */
  readonly fields: Map<string, ValueShape>;
}

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

export function shapeOfDocuments(documents: Iterable<Record<string, unknown>>): ObjectShape {
  const shape: ObjectShape = { count: 0, fields: new Map() };
  for (const document of documents) addObject(shape, document);
  return shape;
}

/** The kinds a value shape held, nulls left out, most frequent first (ties in a fixed order). */
export function kindsOf(shape: ValueShape): ValueKind[] {
  const order: readonly ValueKind[] = ['string', 'boolean', 'int', 'long', 'double', 'decimal', 'date', 'objectId', 'object', 'array', 'unsupported', 'null'];
  return [...shape.kinds.entries()]
    .filter(([kind]) => kind !== 'null')
    .sort(([a, countA], [b, countB]) => countB - countA || order.indexOf(a) - order.indexOf(b))
    .map(([kind]) => kind);
}

/** How many of the shape's values were null. */
export function nullsOf(shape: ValueShape): number {
  return shape.kinds.get('null') ?? 0;
}

export function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'object':
      break;
    default:
      return 'unsupported';
  }
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  switch (bsonTypeOf(value)) {
    case undefined:
      return isPlainObject(value) ? 'object' : 'unsupported';
    case 'Int32':
      return 'int';
    case 'Long':
      return 'long';
    case 'Double':
      return 'double';
    case 'Decimal128':
      return 'decimal';
    case 'ObjectId':
      return 'objectId';
    default:
      return 'unsupported';
  }
}

/** The BSON type name of a driver value (`ObjectId`, `Decimal128`, …); undefined for plain JavaScript values. */
export function bsonTypeOf(value: unknown): string | undefined {
  const tag = (value as { _bsontype?: unknown } | null)?._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}

function emptyValueShape(): ValueShape {
  return { count: 0, kinds: new Map(), unsupported: new Set(), wideLongs: 0, object: undefined, elements: undefined };
}

function addObject(shape: ObjectShape, object: Record<string, unknown>): void {
  shape.count++;
  for (const [key, value] of Object.entries(object)) {
    let field = shape.fields.get(key);
    if (!field) shape.fields.set(key, (field = emptyValueShape()));
    addValue(field, value);
  }
}

function addValue(shape: ValueShape, value: unknown): void {
  const kind = kindOf(value);
  shape.count++;
  shape.kinds.set(kind, (shape.kinds.get(kind) ?? 0) + 1);
  switch (kind) {
    case 'object':
      addObject((shape.object ??= { count: 0, fields: new Map() }), value as Record<string, unknown>);
      return;
    case 'array': {
      const elements = (shape.elements ??= emptyValueShape());
      for (const element of value as unknown[]) addValue(elements, element);
      return;
    }
    case 'long':
      if (!isInt32(value)) shape.wideLongs++;
      return;
    case 'unsupported':
      shape.unsupported.add(bsonTypeOf(value) ?? (value as object).constructor?.name ?? typeof value);
      return;
    default:
      return;
  }
}

function isInt32(value: unknown): boolean {
  const number = typeof value === 'bigint' ? Number(value) : Number((value as { toNumber?: () => number }).toNumber?.() ?? NaN);
  return Number.isInteger(number) && number >= INT32_MIN && number <= INT32_MAX;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
