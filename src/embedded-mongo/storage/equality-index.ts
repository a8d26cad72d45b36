import type { Document } from 'bson';
import { compileFilter, documentComparator, sortDocuments } from '../query';
import { withoutTimeLimit } from '../protocol/command-time-limit';
import { documentKey, indexKey } from './document-key';
import { valuesAtPath } from './path-values';

/** What createIndexes asked for, as listIndexes echoes it. */
export interface IndexDefinition {
  readonly name: string;
  /** The ordered key pattern, e.g. `{ postId: 1, createdAt: -1 }`. */
  readonly key: Document;
  readonly unique: boolean;
  readonly sparse: boolean;
  /** Any other createIndexes options (partialFilterExpression, which limits a unique constraint, collation ...), kept for listIndexes. */
  readonly options: Document;
}

/** One unique-constraint key of a document: its string identity and the `keyValue` errors report. */
export interface UniqueKey {
  readonly key: string;
  readonly keyValue: Document;
}

/**
 * The documents indexed under one key: the stored document itself while there is one (which saves
 * memory on unique-ish data), else a Set of them. Holding documents rather than ids lets a lookup
 * skip the `_id` map; a write replaces the old object with the new one.
 */
type Posting = Document | Set<Document>;

/**
 * One key's documents in a sort's order: the stable sort of its posting (in posting order), kept so
 * by each write, which appends to the posting (so goes after its equals) or removes from it.
 */
interface OrderedPosting {
  readonly compare: (a: Document, b: Document) => number;
  readonly docs: Document[];
}

/**
 * An equality index over the first field of a key pattern: value key → document ids. Multikey: an
 * array contributes each element, plus the whole array so that equality on an array value finds it.
 * Compound unique indexes also keep a map over the full key tuple to enforce uniqueness.
 */
export class EqualityIndex {
  private readonly paths: readonly (readonly string[])[];
  private readonly byValue = new Map<string, Posting>();
  private readonly byWholeArray = new Map<string, Posting>();
  private readonly byTuple: Map<string, Posting> | undefined;
  /** Whether some document has ever had more than one key here (an array value): lookups must then dedupe. */
  private multikey = false;
  /**
   * Per first-field key, its documents in the order of a sort this index provides (by the sort's
   * signature): the B-tree order a compound index keeps, built on first use, then kept by writes.
   */
  private readonly orderedPostings = new Map<string, Map<string, OrderedPosting>>();
  /**
   * Whether a document is under the unique constraint: a partial index's (`partialFilterExpression`)
   * holds only the documents matching its filter. Lookups still read every document's keys.
   */
  private readonly constrained: (doc: Document) => boolean;

  constructor(readonly definition: IndexDefinition) {
    this.paths = Object.keys(definition.key).map((field) => field.split('.'));
    this.byTuple = definition.unique && this.paths.length > 1 ? new Map() : undefined;
    const partial: unknown = definition.options.partialFilterExpression;
    this.constrained = partial === undefined ? () => true : compileFilter(partial as Document);
  }

  get fields(): string[] {
    return Object.keys(this.definition.key);
  }

  get firstField(): string {
    return this.fields[0]!;
  }

  add(doc: Document): void {
    this.update(doc, true);
  }

  remove(doc: Document): void {
    this.update(doc, false);
  }

  /** Documents whose first indexed field may equal one of `values`, each once, in the order of `values`. */
  *lookup(values: readonly unknown[]): Iterable<Document> {
    const byKey = new Map<string, unknown>();
    for (const value of values) {
      const key = indexKey(value);
      if (!byKey.has(key)) byKey.set(key, value);
    }
    // one key per document and no array lookups: the postings are disjoint, nothing to dedupe
    const seen = this.multikey || values.some(Array.isArray) ? new Set<Document>() : undefined;
    for (const [key, value] of byKey) {
      yield* postingDocuments(this.byValue.get(key), seen);
      if (Array.isArray(value)) yield* postingDocuments(this.byWholeArray.get(key), seen);
    }
  }

  /**
   * The signature of `sort` when, after an equality on the first field, this index's order answers
   * it: the sort names the fields after the first, in order (a prefix of them is enough), each in
   * the key pattern's direction or each reversed. Undefined when it does not. A sort on `_id` alone is
   * answered by any index: its values are unique, so a key's documents in `_id` order are the sort's
   * result, an order the embedded server keeps for itself where MongoDB would sort them.
   */
  orderSignature(sort: Document): string | undefined {
    const fields = this.fields;
    const sortFields = Object.keys(sort);
    if (sortFields.length === 1 && sortFields[0] === '_id' && (sort._id === 1 || sort._id === -1)) return `_id:${String(sort._id)}`;
    if (sortFields.length === 0 || sortFields.length >= fields.length) return undefined;
    let reversed: boolean | undefined;
    for (let i = 0; i < sortFields.length; i++) {
      const field = sortFields[i]!;
      const direction: unknown = sort[field];
      const pattern: unknown = this.definition.key[field];
      if (field !== fields[i + 1] || (direction !== 1 && direction !== -1) || (pattern !== 1 && pattern !== -1)) return undefined;
      const opposite = direction !== pattern;
      if (reversed !== undefined && reversed !== opposite) return undefined;
      reversed = opposite;
    }
    return sortFields.map((field) => `${field}:${String(sort[field])}`).join(',');
  }

  /**
   * The documents whose first indexed field equals `value` (not an array), in the stable `sort` order
   * of `lookup([value])`: what a walk of the compound index yields. `signature` is `orderSignature(sort)`.
   * The array is live (writes keep it in order): read it before the next write.
   */
  ordered(value: unknown, sort: Document, signature: string): readonly Document[] {
    const key = indexKey(value);
    // A key no document holds keeps no order: it would stay cached for every key ever asked for.
    if (!this.byValue.has(key)) return [];
    let bySort = this.orderedPostings.get(key);
    if (bySort === undefined) this.orderedPostings.set(key, (bySort = new Map()));
    let order = bySort.get(signature);
    if (order === undefined) {
      const docs = withoutTimeLimit(() => sortDocuments([...postingDocuments(this.byValue.get(key), undefined)], sort));
      order = { compare: documentComparator(sort), docs };
      bySort.set(signature, order);
    }
    return order.docs;
  }

  /** The unique-constraint keys of `doc`, or none when the index is not unique or skips the document. */
  uniqueKeys(doc: Document): UniqueKey[] {
    if (!this.definition.unique || !this.constrained(doc)) return [];
    const perField = this.fieldKeys(doc);
    if (perField === undefined) return [];
    const fields = this.fields;
    let tuples: { keys: string[]; keyValue: Document }[] = [{ keys: [], keyValue: {} }];
    perField.forEach((keys, position) => {
      const next: typeof tuples = [];
      for (const tuple of tuples) {
        for (const { key, value } of keys) {
          next.push({ keys: [...tuple.keys, key], keyValue: { ...tuple.keyValue, [fields[position]!]: value } });
        }
      }
      tuples = next;
    });
    return tuples.map((tuple) => ({ key: tuple.keys.length === 1 ? tuple.keys[0]! : JSON.stringify(tuple.keys), keyValue: tuple.keyValue }));
  }

  /** `_id` keys of the documents holding a unique key (from `uniqueKeys`). */
  holders(uniqueKey: string): string[] {
    const posting = (this.byTuple ?? this.byValue).get(uniqueKey);
    if (posting === undefined) return [];
    return (posting instanceof Set ? [...posting] : [posting]).filter(this.constrained).map((doc) => documentKey(doc._id));
  }

  private update(doc: Document, adding: boolean): void {
    const change = adding ? addPosting : removePosting;
    const first = this.fieldKeys(doc);
    if (first === undefined) return;
    const keys = first[0]!;
    if (keys.length > 1) this.multikey = true;
    for (const { key } of keys) {
      change(this.byValue, key, doc);
      const orders = this.orderedPostings.get(key);
      if (orders === undefined) continue;
      if (!this.byValue.has(key)) this.orderedPostings.delete(key);
      else for (const order of orders.values()) (adding ? insertOrdered : removeOrdered)(order, doc);
    }
    for (const array of valuesAtPath(doc, this.paths[0]!).arrays) change(this.byWholeArray, indexKey(array), doc);
    if (this.byTuple) for (const { key } of this.uniqueKeys(doc)) change(this.byTuple, key, doc);
  }

  /**
   * Per indexed field, the keys of `doc` (a missing field indexes as null, an empty array as
   * undefined, as in MongoDB), or undefined when a sparse index skips the document because none of
   * its fields exist.
   */
  private fieldKeys(doc: Document): { key: string; value: unknown }[][] | undefined {
    const found = this.paths.map((path) => valuesAtPath(doc, path));
    if (this.definition.sparse && found.every((f) => f.values.length === 0 && f.arrays.length === 0)) return undefined;
    return found.map((f) => {
      const keys = new Map<string, unknown>();
      for (const value of f.values) keys.set(indexKey(value), value);
      if (keys.size === 0 && !f.missing && f.arrays.length > 0) keys.set(EMPTY_ARRAY_KEY, undefined);
      else if (f.missing || keys.size === 0) keys.set(indexKey(null), null);
      return [...keys].map(([key, value]) => ({ key, value }));
    });
  }
}

/** The key of an empty array: MongoDB indexes it as undefined, apart from null ('z') and every valueKey. */
const EMPTY_ARRAY_KEY = 'U';

function addPosting(map: Map<string, Posting>, key: string, doc: Document): void {
  const posting = map.get(key);
  if (posting === undefined) map.set(key, doc);
  else if (posting instanceof Set) posting.add(doc);
  else if (posting !== doc) map.set(key, new Set([posting, doc]));
}

function removePosting(map: Map<string, Posting>, key: string, doc: Document): void {
  const posting = map.get(key);
  if (posting === undefined) return;
  if (!(posting instanceof Set)) {
    if (posting === doc) map.delete(key);
    return;
  }
  posting.delete(doc);
  if (posting.size === 1) map.set(key, posting.values().next().value!);
  else if (posting.size === 0) map.delete(key);
}

/** After its equals, as the document goes last in the posting. */
function insertOrdered({ compare, docs }: OrderedPosting, doc: Document): void {
  let low = 0;
  let high = docs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(docs[middle]!, doc) <= 0) low = middle + 1;
    else high = middle;
  }
  docs.splice(low, 0, doc);
}

function removeOrdered({ docs }: OrderedPosting, doc: Document): void {
  const at = docs.indexOf(doc);
  if (at >= 0) docs.splice(at, 1);
}

function* postingDocuments(posting: Posting | undefined, seen: Set<Document> | undefined): Iterable<Document> {
  if (posting === undefined) return;
  if (!(posting instanceof Set)) {
    if (seen === undefined) yield posting;
    else if (!seen.has(posting)) {
      seen.add(posting);
      yield posting;
    }
    return;
  }
  if (seen === undefined) {
    yield* posting;
    return;
  }
  for (const doc of posting) {
    if (seen.has(doc)) continue;
    seen.add(doc);
    yield doc;
  }
}
