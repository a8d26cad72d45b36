/** Reads the `_bsontype` tag that every `bson` class instance carries (another copy of bson's classes carries it too). */
export function bsonTag(value: object): string | undefined {
  const tag = (value as { _bsontype?: unknown })._bsontype;
  return typeof tag === 'string' ? tag : undefined;
}
