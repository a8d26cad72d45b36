import type { IncomingMessage } from 'node:http';

const MAX_BODY_BYTES = 1_000_000;

export class RequestBodyError extends Error {
  override readonly name = 'RequestBodyError';
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The request body parsed as JSON when it is JSON, else undefined; Apollo validates its shape. */
export async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RequestBodyError(413, `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  const contentType = request.headers['content-type'] ?? '';
  if (!contentType.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestBodyError(400, 'request body is not valid JSON');
  }
}
