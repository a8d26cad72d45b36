import { type WriteModel, listArrayOf, type ListArrayContent } from '../../gateway';
import { timePathOf } from './time-field';

/**
 * What to measure, derived from the write model alone (no database): per collection, the expressions
 * its one `$sample` projects; per relation field, which of its statistics read which of them.
 */
export interface MeasurementPlan {
  /** Every collection the schema reads, in schema order. */
  readonly collections: ReadonlyMap<string, SampleProjection>;
  /** Every relation field, in schema order. */
  readonly relations: readonly RelationPlan[];
}

export interface RelationPlan {
  readonly coordinate: string;
  readonly collection: string | undefined;
  readonly array: ArrayPlan | undefined;
  /** Shared by the fields reading the same children (`Post.comments`, `Post.recentComments`): measured once. */
  readonly reverseJoin: ReverseJoinPlan | undefined;
  readonly snapshots: readonly SnapshotPlan[];
  /** Statistics that apply but cannot be measured, known from the schema alone. */
  readonly skipped: readonly string[];
}

export interface ArrayPlan {
  readonly collection: string;
  readonly path: string;
  readonly holds: ListArrayContent;
  readonly limit: number | undefined;
  /** The sample field holding the array's length. */
  readonly lengthField: string;
  /** The parent's creation time, for growth. */
  readonly time: { readonly path: string; readonly field: string } | undefined;
}

export interface ReverseJoinPlan {
  readonly parentCollection: string;
  readonly localField: string;
  /** The parent sample's field holding `localField`. */
  readonly parentKeyField: string;
  readonly childCollection: string;
  readonly foreignField: string;
  /** The child sample's field holding `foreignField`. */
  readonly childKeyField: string;
  /** The children's creation time path, for growth. */
  readonly childTimePath: string | undefined;
}

export interface SnapshotPlan {
  readonly coordinate: string;
  readonly collection: string;
  readonly keyPath: string;
  readonly sourceCollection: string;
  /** The source sample's field holding `_id`. */
  readonly sourceIdField: string;
}

/**
 * The fields one collection's sample projects: `{ $project: { _id: 0, bytes: { $bsonSize: '$$ROOT' }, f0: …, f1: … } }`.
 * An expression asked for twice is projected once.
 */
export class SampleProjection {
  readonly #names = new Map<string, string>();
  readonly #expressions = new Map<string, unknown>();

  constructor(readonly collection: string) {}

  /** The name `expression`'s value has in each sampled row. */
  field(expression: unknown): string {
    const signature = JSON.stringify(expression);
    let name = this.#names.get(signature);
    if (name === undefined) {
      name = `f${this.#names.size}`;
      this.#names.set(signature, name);
      this.#expressions.set(name, expression);
    }
    return name;
  }

  /** The `$project` stage: the document's BSON size as `bytes`, then each field. */
  stage(): { $project: Record<string, unknown> } {
    return { $project: { _id: 0, bytes: { $bsonSize: '$$ROOT' }, ...Object.fromEntries(this.#expressions) } };
  }
}

const valueAt = (path: string) => `$${path}`;
/** `$size` fails on anything but an array; a parent without one holds 0 entries. */
const lengthAt = (path: string) => ({ $cond: [{ $isArray: valueAt(path) }, { $size: valueAt(path) }, 0] });

export function planMeasurements(model: WriteModel, timeFields: Readonly<Record<string, string>>): MeasurementPlan {
  const storageMap = model.storageMap;
  const collections = new Map<string, SampleProjection>();
  const sampleOf = (collection: string) => {
    let projection = collections.get(collection);
    if (!projection) collections.set(collection, (projection = new SampleProjection(collection)));
    return projection;
  };
  for (const type of storageMap.types.values()) if (type.collection !== undefined) sampleOf(type.collection);
  for (const field of storageMap.relations.values()) if (field.shapes.join) sampleOf(field.shapes.join.collection);

  const reverseJoins = new Map<string, ReverseJoinPlan>();
  const relations = [...storageMap.relations.values()].map((field): RelationPlan => {
    const collection = storageMap.types.get(field.typeName)?.collection;
    const skipped: string[] = [];
    const holder = `${field.typeName} has no collection of its own (it is stored inside other documents)`;
    let array: ArrayPlan | undefined;
    const arrayShape = listArrayOf(field);
    if (arrayShape && collection === undefined) skipped.push(`array lengths: ${holder}`);
    else if (arrayShape && collection !== undefined) {
      const sample = sampleOf(collection);
      const timePath = timePathOf(storageMap, field.typeName, timeFields);
      if (timePath === undefined) skipped.push(`array growth: ${noTimeField(field.typeName)}`);
      array = { collection, ...arrayShape, lengthField: sample.field(lengthAt(arrayShape.path)), time: timePath === undefined ? undefined : { path: timePath, field: sample.field(valueAt(timePath)) } };
    }
    let reverseJoin: ReverseJoinPlan | undefined;
    const join = field.shapes.join;
    if (join?.direction === 'byReference' && collection === undefined) skipped.push(`reverse join: ${holder}`);
    else if (join?.direction === 'byReference' && collection !== undefined) {
      const id = JSON.stringify([collection, join.localField, join.collection, join.foreignField]);
      reverseJoin = reverseJoins.get(id);
      if (!reverseJoin) {
        const childTimePath = timePathOf(storageMap, join.targetType, timeFields);
        reverseJoin = {
          parentCollection: collection,
          localField: join.localField,
          parentKeyField: sampleOf(collection).field(valueAt(join.localField)),
          childCollection: join.collection,
          foreignField: join.foreignField,
          childKeyField: sampleOf(join.collection).field(valueAt(join.foreignField)),
          childTimePath,
        };
        reverseJoins.set(id, reverseJoin);
      }
      if (reverseJoin.childTimePath === undefined) skipped.push(`children growth: ${noTimeField(join.targetType)}`);
    }
    const snapshots: SnapshotPlan[] = [];
    for (const location of model.snapshots) {
      if (location.field !== field.coordinate) continue;
      if (location.inSourceDocument) {
        skipped.push(`snapshot fan-in of ${location.coordinate}: its copies live only in the source document itself (one per source at most)`);
        continue;
      }
      snapshots.push({
        coordinate: location.coordinate,
        collection: location.collection,
        keyPath: [...location.segments.map((segment) => segment.path), location.key].join('.'),
        sourceCollection: location.sourceCollection,
        sourceIdField: sampleOf(location.sourceCollection).field(valueAt('_id')),
      });
    }
    return { coordinate: field.coordinate, collection, array, reverseJoin, snapshots, skipped };
  });
  return { collections, relations };
}

function noTimeField(typeName: string): string {
  return `${typeName} has no creation time field; name one with the timeFields option`;
}

