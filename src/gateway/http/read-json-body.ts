import type { IncomingMessage } from 'node:http';
import { parse as parseContentType, type ContentType } from 'content-type';
import { TextDecoder } from 'node:util';

export const MAX_BODY_BYTES = 1_000_000;

export class RequestBodyError extends Error {
  override readonly name = 'RequestBodyError';
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/**
 * The request body parsed as JSON when its Content-Type is `application/json` (in any case, in UTF-8 or
 * another UTF its charset names), else its text (undefined when empty); Apollo validates its shape. A body over the limit is refused as soon as it passes it (413), and one whose
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
          resolve(parseBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), request.headers['content-type']));
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

function parseBody(body: Buffer, contentTypeHeader: string | undefined): unknown {
  if (body.length === 0) return undefined;
  const contentType = contentTypeOf(contentTypeHeader);
  // Not JSON: Apollo answers that the body has no operation (400), as to a form or plain text.
  if (contentType?.type !== 'application/json') return body.toString('utf8');
  try {
    return JSON.parse(decodeText(body, contentType.parameters.charset));
  } catch (error) {
    if (error instanceof RequestBodyError) throw error;
    throw new RequestBodyError(400, 'request body is not valid JSON');
  }
}

/** The header parsed by the `content-type` package (type lowercased, parameters by name), or undefined when there is none or it is malformed. */
function contentTypeOf(header: string | undefined): ContentType | undefined {
  if (header === undefined) return undefined;
  try {
    return parseContentType(header);
  } catch {
    return undefined;
  }
}

/**
 * The body's text in its charset (UTF-8 unless it names another UTF), without a byte-order mark; 415 for
 * any other charset, as Express's JSON parser answers, and 400 for bytes that are no text in it (never
 * replaced by U+FFFD, which would run the operation on other values than the client sent).
 */
function decodeText(body: Buffer, charset: string | undefined): string {
  const name = (charset ?? 'utf-8').toLowerCase();
  let decoder: TextDecoder | undefined;
  try {
    if (name === 'utf8' || name.startsWith('utf-')) decoder = new TextDecoder(name, { fatal: true });
  } catch {
    // An encoding Node cannot decode (utf-32): refused below.
  }
  if (decoder !== undefined) {
    try {
      return decoder.decode(body);
    } catch {
      throw new RequestBodyError(400, `request body is not valid ${decoder.encoding}`);
    }
  }
  throw new RequestBodyError(415, `unsupported charset "${charset}": send the body as UTF-8`);
}
