import type { Document } from 'bson';
import { indexKey } from './document-key';
import { valuesAtPath } from './path-values';

/** What createIndexes asked for, as listIndexes echoes it. */
export interface IndexDefinition {
  readonly name: string;
  /** The ordered key pattern, e.g. `{ postId: 1, createdAt: -1 }`. */
  readonly key: Document;
  readonly unique: boolean;
  readonly sparse: boolean;
  /** Any other createIndexes options (partialFilterExpression, collation ...), kept for listIndexes. */
  readonly options: Document;
}

/** One unique-constraint key of a document: its string identity and the `keyValue` errors report. */
export interface UniqueKey {
  readonly key: string;
  readonly keyValue: Document;
}

/** The ids indexed under one key: a bare string while there is one, which saves memory on unique-ish data. */
type Posting = string | Set<string>;

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

  constructor(readonly definition: IndexDefinition) {
    this.paths = Object.keys(definition.key).map((field) => field.split('.'));
    this.byTuple = definition.unique && this.paths.length > 1 ? new Map() : undefined;
  }

  get fields(): string[] {
    return Object.keys(this.definition.key);
  }

  get firstField(): string {
    return this.fields[0]!;
  }

  add(id: string, doc: Document): void {
    this.update(id, doc, addPosting);
  }

  remove(id: string, doc: Document): void {
    this.update(id, doc, removePosting);
  }

  /** Ids of documents whose first indexed field may equal one of `values`. */
  lookup(values: readonly unknown[], into: Set<string>): void {
    for (const value of values) {
      const key = indexKey(value);
      collectPosting(this.byValue.get(key), into);
      if (Array.isArray(value)) collectPosting(this.byWholeArray.get(key), into);
    }
  }

  /** The unique-constraint keys of `doc`, or none when the index is not unique or skips the document. */
  uniqueKeys(doc: Document): UniqueKey[] {
    if (!this.definition.unique) return [];
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

  /** Ids of documents holding a unique key (from `uniqueKeys`). */
  holders(uniqueKey: string): string[] {
    const posting = (this.byTuple ?? this.byValue).get(uniqueKey);
    if (posting === undefined) return [];
    return typeof posting === 'string' ? [posting] : [...posting];
  }

  private update(id: string, doc: Document, change: (map: Map<string, Posting>, key: string, id: string) => void): void {
    const first = this.fieldKeys(doc);
    if (first === undefined) return;
    for (const { key } of first[0]!) change(this.byValue, key, id);
    for (const array of valuesAtPath(doc, this.paths[0]!).arrays) change(this.byWholeArray, indexKey(array), id);
    if (this.byTuple) for (const { key } of this.uniqueKeys(doc)) change(this.byTuple, key, id);
  }

  /**
   * Per indexed field, the keys of `doc` (a missing field indexes as null), or undefined when a sparse
   * index skips the document because none of its fields exist.
   */
  private fieldKeys(doc: Document): { key: string; value: unknown }[][] | undefined {
    const found = this.paths.map((path) => valuesAtPath(doc, path));
    if (this.definition.sparse && found.every((f) => f.values.length === 0 && f.arrays.length === 0)) return undefined;
    return found.map((f) => {
      const keys = new Map<string, unknown>();
      for (const value of f.values) keys.set(indexKey(value), value);
      if (f.missing || keys.size === 0) keys.set(indexKey(null), null);
      return [...keys].map(([key, value]) => ({ key, value }));
    });
  }
}

function addPosting(map: Map<string, Posting>, key: string, id: string): void {
  const posting = map.get(key);
  if (posting === undefined) map.set(key, id);
  else if (typeof posting === 'string') {
    if (posting !== id) map.set(key, new Set([posting, id]));
  } else posting.add(id);
}

function removePosting(map: Map<string, Posting>, key: string, id: string): void {
  const posting = map.get(key);
  if (posting === undefined) return;
  if (typeof posting === 'string') {
    if (posting === id) map.delete(key);
    return;
  }
  posting.delete(id);
  if (posting.size === 1) map.set(key, posting.values().next().value!);
  else if (posting.size === 0) map.delete(key);
}

function collectPosting(posting: Posting | undefined, into: Set<string>): void {
  if (posting === undefined) return;
  if (typeof posting === 'string') into.add(posting);
  else for (const id of posting) into.add(id);
}
