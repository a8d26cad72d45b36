import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 1_000_000;

export class RequestBodyError extends Error {
  override readonly name = 'RequestBodyError';
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * The request body parsed as JSON when it is JSON, else its text (undefined when empty); Apollo
 * validates its shape. A body over the limit is refused as soon as it passes it (413), and one whose
 * next chunk `mayBuffer` refuses (503); the rest is read and dropped.
 */
export function readJsonBody(request: IncomingMessage, mayBuffer: (bytes: number) => boolean = () => true): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = request.socket;
    const settle = (outcome: () => void) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      socket?.off('close', onClose);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES && mayBuffer(chunk.length)) {
        chunks.push(chunk);
        return;
      }
      const refusal = size > MAX_BODY_BYTES ? new RequestBodyError(413, `request body over ${MAX_BODY_BYTES} bytes`) : new RequestBodyError(503, 'too many request bodies are being read at once');
      settle(() => reject(refusal));
      request.resume();
    };
    const onEnd = () =>
      settle(() => {
        try {
          resolve(parseBody(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'), request.headers['content-type']));
        } catch (error) {
          reject(error);
        }
      });
    const onError = () => settle(() => reject(new RequestBodyError(400, 'request body could not be read')));
    // A connection that closes before the body's end (its client gone, or closed by the server) ends
    // the read; once an answer was sent, only the socket still says so.
    const onClose = () => settle(() => reject(new RequestBodyError(400, 'request body ended before its length')));
    request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    socket?.once('close', onClose);
  });
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (!(contentType ?? '').includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestBodyError(400, 'request body is not valid JSON');
  }
}
