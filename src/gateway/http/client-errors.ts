import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { PublicErrorCode } from '../errors/public-error-code';

/**
 * The answer to a request Node's HTTP parser refused before docjoin saw it: as Node answers (431 for
 * headers past its limit, 408 for headers that took too long, 400 for the rest), but with a JSON body
 * holding a GraphQL error and a stable code, as every other refusal has. Node's own answer has no body.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): ClientErrorAnswer | undefined {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (CLIENT_GONE.has(error.code ?? '') || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return undefined;
  }
  const [status, code, message] = refusalOf(error);
  const body = JSON.stringify({ errors: [{ message, extensions: { code } }] });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  return { status, code };
}

/** The client reset the connection, or ended it in the middle of a request (its body cut short): nobody to answer. */
const CLIENT_GONE: ReadonlySet<string> = new Set(['ECONNRESET', 'HPE_INVALID_EOF_STATE']);

/** What a refused request was answered: undefined when nothing could be (its client gone, or an answer already started). */
export interface ClientErrorAnswer {
  readonly status: number;
  readonly code: PublicErrorCode;
}

function refusalOf(error: NodeJS.ErrnoException): [number, PublicErrorCode, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, PublicErrorCode.BAD_REQUEST, `The request's headers, its URL and query string included, are longer than the server takes (${Math.round(maxHeaderSize / 1024)} KB); send a long operation or long variables in a POST body`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, PublicErrorCode.OPERATION_TIMEOUT, "The request's headers did not all arrive within the operation time limit"];
    default:
      return [400, PublicErrorCode.BAD_REQUEST, 'The request is not well-formed HTTP/1.1'];
  }
}
