import { mapSchema, MapperKind } from '@graphql-tools/utils';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { ObjectId, type Db, type Document } from 'mongodb';
import type { StorageMap } from 'docjoin';
import { aggregateTypeNames } from '../../src/gateway/startup/aggregates/aggregate-names';
import { conditionFilters, toMongoFilter } from '../../src/gateway/operation/planning/list-filter';
import type { AggregateField } from '../../src/gateway/startup/storage-map/storage-map-types';

/**
 * `schema` with every `@aggregate` field answered the plain way, as a hand-written server would: read
 * the matching children with the driver, then count, add up, compare and group them in JavaScript, each
 * `groupBy` computed when graphql-js asks for it. The reference the differential test compares docjoin's
 * one-aggregate-per-level with.
 */
export function withReferenceAggregates(schema: GraphQLSchema, storageMap: StorageMap, db: Db): GraphQLSchema {
  const aggregateTypes = new Set([...storageMap.aggregates.values()].map((aggregate) => aggregateTypeNames(aggregate.targetType).aggregate));
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const aggregate = storageMap.aggregates.get(`${typeName}.${fieldName}`);
      if (aggregate) return { ...field, resolve: (parent: Document | undefined, args: Record<string, unknown>) => figuresOfList(aggregate, parent, args, db) };
      // graphql-js's default resolver calls the value's groupBy function with the arguments.
      if (aggregateTypes.has(typeName) && fieldName === 'groupBy') return { ...field, resolve: undefined };
      return field;
    },
  });
}

type Figures = ReturnType<typeof figuresOf>;

async function figuresOfList(aggregate: AggregateField, parent: Document | undefined, args: Record<string, unknown>, db: Db): Promise<Figures & { groupBy(args: Record<string, unknown>): unknown[] }> {
  const filter = toMongoFilter(conditionFilters(aggregate.conditions, args));
  let documents: Document[] = [];
  const link = aggregate.parentLink;
  const parentKey = link ? valueAt(parent ?? {}, link.localField) : undefined;
  if (!link || (parentKey !== null && parentKey !== undefined)) {
    documents = await db.collection(aggregate.collection).find(link ? { $and: [{ [link.foreignField]: parentKey }, filter] } : filter).toArray();
  }
  const typeName = aggregateTypeNames(aggregate.targetType).aggregate;
  return {
    ...figuresOf(aggregate, documents),
    groupBy({ by, first, order }: Record<string, unknown>) {
      const values = [...new Set(by as string[])];
      const size = first === null || first === undefined ? 20 : (first as number);
      if (values.length === 0) throw badInput(`${typeName}.groupBy(by:) needs at least one field to group by`, 'by');
      if (!Number.isInteger(size) || size < 0 || size > 1000) throw badInput(`${typeName}.groupBy(first:) must be between 0 and 1000, got ${size}`, 'first');
      const keys = values.map((value) => aggregate.keys.get(value)!);
      const groups = new Map<string, { key: unknown[]; documents: Document[] }>();
      for (const document of documents) {
        const key = keys.map((field) => valueAt(document, field.path) ?? null);
        const id = JSON.stringify(key.map(canonical));
        const group = groups.get(id) ?? { key, documents: [] };
        group.documents.push(document);
        groups.set(id, group);
      }
      const byKeys = (a: { key: unknown[] }, b: { key: unknown[] }) => a.key.reduce<number>((found, value, index) => found || compareBson(value, b.key[index]), 0);
      const sorted = [...groups.values()].sort((a, b) =>
        order === 'COUNT_DESC' ? b.documents.length - a.documents.length || byKeys(a, b) : order === 'COUNT_ASC' ? a.documents.length - b.documents.length || byKeys(a, b) : byKeys(a, b),
      );
      return sorted.slice(0, size).map((group) => ({
        key: Object.fromEntries(keys.map((field, index) => [field.fieldName, shown(group.key[index])])),
        ...figuresOf(aggregate, group.documents),
      }));
    },
  };
}

function figuresOf(aggregate: AggregateField, documents: readonly Document[]) {
  const sum: Record<string, number> = {};
  const avg: Record<string, number | null> = {};
  const min: Record<string, unknown> = {};
  const max: Record<string, unknown> = {};
  for (const figure of aggregate.figures.values()) {
    const values = documents.map((document) => valueAt(document, figure.path)).filter((value) => value !== null && value !== undefined);
    const numbers = values.filter((value): value is number => typeof value === 'number');
    if (figure.numeric) {
      sum[figure.fieldName] = numbers.reduce((total, value) => total + value, 0);
      avg[figure.fieldName] = numbers.length === 0 ? null : sum[figure.fieldName]! / numbers.length;
    }
    const ordered = [...values].sort(compareBson);
    min[figure.fieldName] = ordered[0] ?? null;
    max[figure.fieldName] = ordered.at(-1) ?? null;
  }
  return { count: documents.length, sum, avg, min, max };
}

function valueAt(document: Document, path: string): unknown {
  return path.split('.').reduce<unknown>((value, part) => (value !== null && typeof value === 'object' ? (value as Document)[part] : undefined), document);
}

/** MongoDB's order across the types a key can hold: null, numbers, strings (by UTF-8 bytes), ObjectIds, booleans, dates. */
function compareBson(a: unknown, b: unknown): number {
  const rank = (value: unknown) => (value === null || value === undefined ? 0 : typeof value === 'number' ? 1 : typeof value === 'string' ? 2 : value instanceof ObjectId ? 3 : typeof value === 'boolean' ? 4 : 5);
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  if (a instanceof ObjectId && b instanceof ObjectId) return Buffer.compare(Buffer.from(a.id), Buffer.from(b.id));
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  return 0;
}

function canonical(value: unknown): unknown {
  return value instanceof ObjectId ? `oid:${value.toHexString()}` : value instanceof Date ? `date:${value.toISOString()}` : value;
}

function shown(value: unknown): unknown {
  return value instanceof ObjectId ? value.toHexString() : value;
}

function badInput(message: string, argumentName: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argumentName } });
}
