import type { Document } from 'bson';

/** A value as the mongo shell prints it, which is what MongoDB puts in its error messages (E11000, array updates on a non-array). */
export function formatShellValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(formatShellValue).join(', ')} ]`;
  if (typeof value !== 'object') return String(value);
  const tag = (value as { _bsontype?: unknown })._bsontype;
  switch (tag) {
    case 'ObjectId':
      return `ObjectId('${(value as { toHexString(): string }).toHexString()}')`;
    case 'Long':
    case 'Int32':
    case 'Double':
      return String(value.valueOf());
    case 'Decimal128':
      return `Decimal128("${String(value)}")`;
    case 'Binary':
      return `BinData(${(value as { sub_type: number }).sub_type}, ${(value as { toString(encoding: 'base64'): string }).toString('base64')})`;
    case undefined: {
      const entries = Object.entries(value as Document);
      if (entries.length === 0) return '{}';
      return `{ ${entries.map(([key, inner]) => `${key}: ${formatShellValue(inner)}`).join(', ')} }`;
    }
    default:
      return String(value);
  }
}
