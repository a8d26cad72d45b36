import type { Document } from 'bson';
import { compareValues, sortDocuments } from '../query';

/** Chunks split when they grow past twice this size; splicing a chunk costs O(CHUNK_SIZE). */
const CHUNK_SIZE = 512;

/**
 * A collection's documents in `_id` order (BSON order), for sorts on `_id`: a list of sorted chunks,
 * so an insert or delete costs a binary search plus a splice inside one chunk, and inserting ids that
 * grow (ObjectIds from one client) is an append. Holds the stored document objects themselves.
 */
export class IdOrder {
  private readonly chunks: Document[][] = [];

  /** Builds the order of `docs` (any order; `_id`s distinct). */
  constructor(docs: Iterable<Document>) {
    const sorted = sortDocuments([...docs], { _id: 1 });
    for (let start = 0; start < sorted.length; start += CHUNK_SIZE) this.chunks.push(sorted.slice(start, start + CHUNK_SIZE));
  }

  get size(): number {
    let size = 0;
    for (const chunk of this.chunks) size += chunk.length;
    return size;
  }

  /** Documents by ascending (1) or descending (-1) `_id`. */
  *documents(direction: 1 | -1): Iterable<Document> {
    if (direction === 1) {
      for (const chunk of this.chunks) yield* chunk;
      return;
    }
    for (let c = this.chunks.length - 1; c >= 0; c--) {
      const chunk = this.chunks[c]!;
      for (let i = chunk.length - 1; i >= 0; i--) yield chunk[i]!;
    }
  }

  insert(doc: Document): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last === undefined) {
      this.chunks.push([doc]);
      return;
    }
    if (compareValues(doc._id, last[last.length - 1]!._id) > 0) {
      last.push(doc);
      this.splitIfFull(this.chunks.length - 1);
      return;
    }
    const c = this.chunkFor(doc._id);
    const chunk = this.chunks[c]!;
    chunk.splice(this.positionIn(chunk, doc._id), 0, doc);
    this.splitIfFull(c);
  }

  /** Replaces the document with the same `_id` (an update). */
  replace(doc: Document): void {
    const [chunk, position] = this.find(doc._id);
    if (chunk !== undefined) chunk[position] = doc;
  }

  remove(id: unknown): void {
    const [chunk, position] = this.find(id);
    if (chunk === undefined) return;
    chunk.splice(position, 1);
    if (chunk.length === 0) this.chunks.splice(this.chunks.indexOf(chunk), 1);
  }

  private find(id: unknown): [Document[] | undefined, number] {
    if (this.chunks.length === 0) return [undefined, 0];
    const chunk = this.chunks[this.chunkFor(id)]!;
    const position = this.positionIn(chunk, id);
    const found = chunk[position];
    return found !== undefined && compareValues(found._id, id) === 0 ? [chunk, position] : [undefined, 0];
  }

  /** The first chunk whose last `_id` is ≥ `id` (the last chunk when none is). */
  private chunkFor(id: unknown): number {
    let low = 0;
    let high = this.chunks.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      const chunk = this.chunks[middle]!;
      if (compareValues(chunk[chunk.length - 1]!._id, id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first position in `chunk` whose `_id` is ≥ `id`. */
  private positionIn(chunk: Document[], id: unknown): number {
    let low = 0;
    let high = chunk.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareValues(chunk[middle]!._id, id) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private splitIfFull(c: number): void {
    const chunk = this.chunks[c]!;
    if (chunk.length < 2 * CHUNK_SIZE) return;
    this.chunks.splice(c + 1, 0, chunk.splice(CHUNK_SIZE));
  }
}
