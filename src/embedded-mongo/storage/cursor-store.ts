import { Long, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { MAX_BSON_OBJECT_SIZE } from '../protocol/wire-constants';
import { arrayOfEncoded, encodeBatchArray, encodeBatchDocument, rememberEncodedBatch } from '../protocol/encoded-batches';

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
  /** The logical session (its lsid's key) that opened it, which every getMore must come in; undefined outside a session. */
  readonly session: string | undefined;
  readonly documents: readonly Document[];
  readonly project: (doc: Document) => Document;
  position: number;
  lastUsed: number;
  /** Whether a batch is still tried whole: once one did not fit, the rest are measured one document at a time. */
  wholeBatches: boolean;
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
    options: { batchSize?: number; singleBatch?: boolean; project?: (doc: Document) => Document; session?: string } = {},
  ): CursorBatch {
    this.dropIdle();
    const cursor: OpenCursor = { ns, session: options.session, documents, project: options.project ?? ((doc) => doc), position: 0, lastUsed: Date.now(), wholeBatches: true };
    const batch = takeBatch(cursor, options.batchSize ?? DEFAULT_FIRST_BATCH_SIZE);
    if (options.singleBatch === true || cursor.position >= documents.length) return { id: Long.ZERO, ns, documents: batch };
    const id = this.nextId++;
    this.cursors.set(id, cursor);
    return { id: Long.fromBigInt(id), ns, documents: batch };
  }

  /**
   * The next batch of a cursor on `ns`: `batchSize` documents, or all that fit in 16 MiB when unset.
   * As in MongoDB, a cursor opened in a session answers only a getMore in that session.
   */
  getMore(id: bigint, ns: string, batchSize: number | undefined, session?: string): CursorBatch {
    const cursor = this.cursors.get(id);
    if (cursor === undefined) throw new CommandError(ErrorCodes.CursorNotFound, 'CursorNotFound', `cursor id ${id} not found`);
    if (cursor.ns !== ns) {
      throw new CommandError(13, 'Unauthorized', `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${cursor.ns}`);
    }
    if (cursor.session !== undefined && session === undefined) {
      throw new CommandError(50737, 'Location50737', `Cannot run getMore on cursor ${id}, which was created in session ${cursor.session}, without an lsid`);
    }
    if (cursor.session === undefined && session !== undefined) {
      throw new CommandError(50736, 'Location50736', `Cannot run getMore on cursor ${id}, which was not created in a session, in session ${session}`);
    }
    if (cursor.session !== session) {
      throw new CommandError(50738, 'Location50738', `Cannot run getMore on cursor ${id}, which was created in session ${cursor.session}, in session ${session}`);
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

/** Batches up to this many documents are encoded in one pass, and measured after. */
const ONE_PASS_DOCUMENTS = 10_000;
/** MongoDB's largest document it builds (BSONObjMaxInternalSize: 16 MiB and 16 KiB); a result past it is BSONObjectTooLarge. */
const MAX_RESULT_DOCUMENT_BYTES = MAX_BSON_OBJECT_SIZE + 16 * 1024;

/**
 * The next documents of `cursor`, encoded as the reply will send them: their bytes measure the batch
 * (at most maxCount documents, and no more than 16 MiB unless the first is larger), and are sent as
 * they are. A batch is encoded whole when it fits; past 16 MiB, one document at a time until it stops.
 */
function takeBatch(cursor: OpenCursor, maxCount: number): Document[] {
  const candidates = wholeCandidates(cursor, maxCount);
  const whole = candidates && encodedWhole(candidates);
  if (candidates && whole) {
    cursor.position += candidates.length;
    rememberEncodedBatch(candidates, whole);
    return candidates;
  }
  if (candidates) cursor.wholeBatches = false;
  const batch: Document[] = [];
  const encoded: Uint8Array[] = [];
  let bytes = 0;
  while (batch.length < maxCount && cursor.position < cursor.documents.length) {
    const doc = candidates?.[batch.length] ?? cursor.project(cursor.documents[cursor.position]!);
    const bson = encodeBatchDocument(doc);
    if (bson.byteLength > MAX_RESULT_DOCUMENT_BYTES) {
      throw new CommandError(10334, 'BSONObjectTooLarge', `BSONObj size: ${bson.byteLength} is invalid. Size must be between 0 and ${MAX_RESULT_DOCUMENT_BYTES}(16MB)`);
    }
    if (batch.length > 0 && bytes + bson.byteLength > MAX_BATCH_BYTES) break;
    batch.push(doc);
    encoded.push(bson);
    bytes += bson.byteLength;
    cursor.position += 1;
  }
  rememberEncodedBatch(batch, arrayOfEncoded(encoded));
  return batch;
}

/**
 * The next batch's documents, projected, to be encoded whole; undefined when the cursor measures one
 * document at a time, the batch is too long to try, or a projection fails (then the document that
 * fails is met in its turn, in the batch that would hold it).
 */
function wholeCandidates(cursor: OpenCursor, maxCount: number): Document[] | undefined {
  const count = Math.min(maxCount, cursor.documents.length - cursor.position);
  if (!cursor.wholeBatches || count > ONE_PASS_DOCUMENTS) return undefined;
  try {
    return cursor.documents.slice(cursor.position, cursor.position + count).map((doc) => cursor.project(doc));
  } catch {
    return undefined;
  }
}

/** The documents as one BSON array when they fit a batch; undefined when they do not, or are too large to write at once. */
function encodedWhole(documents: readonly Document[]): Uint8Array | undefined {
  try {
    const bytes = encodeBatchArray(documents);
    return bytes.byteLength <= MAX_BATCH_BYTES ? bytes : undefined;
  } catch {
    return undefined; // bson's buffer is smaller than the batch: measured one document at a time
  }
}
