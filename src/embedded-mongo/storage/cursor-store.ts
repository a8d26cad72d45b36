import { calculateObjectSize, Long, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';

/** MongoDB's reply size limit; a batch stops before crossing it. */
const MAX_BATCH_BYTES = 16 * 1024 * 1024;
/** The first batch of find/aggregate holds 101 documents unless batchSize says otherwise. */
export const DEFAULT_FIRST_BATCH_SIZE = 101;
/** Like MongoDB's cursorTimeoutMillis: cursors idle this long are dropped. */
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

export interface CursorBatch {
  /** 0 when the cursor is exhausted or closed. */
  readonly id: Long;
  readonly ns: string;
  readonly documents: Document[];
}

interface OpenCursor {
  readonly ns: string;
  readonly documents: readonly Document[];
  readonly project: (doc: Document) => Document;
  position: number;
  lastUsed: number;
}

/**
 * Server-side cursors over materialised results. Documents are the store's frozen objects, so a
 * cursor never sees later writes; a projection runs as each batch is taken.
 */
export class CursorStore {
  private readonly cursors = new Map<bigint, OpenCursor>();
  private nextId = BigInt(Math.floor(Math.random() * 2 ** 30)) * 1000n + 1n;

  /** Opens a cursor and takes its first batch; the returned id is 0 when nothing is left to fetch. */
  open(
    ns: string,
    documents: readonly Document[],
    options: { batchSize?: number; singleBatch?: boolean; project?: (doc: Document) => Document } = {},
  ): CursorBatch {
    this.dropIdle();
    const cursor: OpenCursor = { ns, documents, project: options.project ?? ((doc) => doc), position: 0, lastUsed: Date.now() };
    const batch = takeBatch(cursor, options.batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    if (options.singleBatch === true || cursor.position >= documents.length) return { id: Long.ZERO, ns, documents: batch };
    const id = this.nextId++;
    this.cursors.set(id, cursor);
    return { id: Long.fromBigInt(id), ns, documents: batch };
  }

  /** The next batch of a cursor on `ns`: `batchSize` documents, or all that fit in 16 MiB when unset. */
  getMore(id: bigint, ns: string, batchSize: number | undefined): CursorBatch {
    const cursor = this.cursors.get(id);
    if (cursor === undefined) throw new CommandError(ErrorCodes.CursorNotFound, 'CursorNotFound', `cursor id ${id} not found`);
    if (cursor.ns !== ns) {
      throw new CommandError(13, 'Unauthorized', `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`);
    }
    cursor.lastUsed = Date.now();
    const batch = takeBatch(cursor, batchSize !== undefined && batchSize > 0 ? batchSize : Number.POSITIVE_INFINITY);
    if (cursor.position >= cursor.documents.length) {
      this.cursors.delete(id);
      return { id: Long.ZERO, ns, documents: batch };
    }
    return { id: Long.fromBigInt(id), ns, documents: batch };
  }

  /** Closes a cursor; false when no open cursor has that id. */
  kill(id: bigint): boolean {
    return this.cursors.delete(id);
  }

  get openCount(): number {
    return this.cursors.size;
  }

  private dropIdle(): void {
    const cutoff = Date.now() - IDLE_TIMEOUT_MS;
    for (const [id, cursor] of this.cursors) if (cursor.lastUsed < cutoff) this.cursors.delete(id);
  }
}

function takeBatch(cursor: OpenCursor, maxCount: number): Document[] {
  const batch: Document[] = [];
  let bytes = 0;
  while (batch.length < maxCount && cursor.position < cursor.documents.length) {
    const doc = cursor.project(cursor.documents[cursor.position]!);
    const size = calculateObjectSize(doc);
    if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
    batch.push(doc);
    bytes += size;
    cursor.position += 1;
  }
  return batch;
}
