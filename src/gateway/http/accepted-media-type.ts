import Negotiator from 'negotiator';

/** The media types Apollo Server answers a single result in, exactly as it offers them (its MEDIA_TYPES, not exported). */
const RESULT_MEDIA_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];

/**
 * Apollo's refusal of a POST whose Accept header allows none of the media types it answers in, made
 * before the operation runs. Apollo itself negotiates once the operation has run, so a mutation would
 * commit and its client hear 406, a 4xx that reads as nothing done. Undefined: it can be answered (no
 * Accept header is `*\/*`). A GET is left to Apollo: it writes nothing, and one preferring HTML gets
 * the landing page.
 */
export function unacceptableAccept(method: string, accept: string | undefined): string | undefined {
  // An empty header is no header, as Apollo reads it.
  if (method !== 'POST' || !accept) return undefined;
  if (new Negotiator({ headers: { accept } }).mediaType(RESULT_MEDIA_TYPES) !== undefined) return undefined;
  return `An 'accept' header was provided for this request which does not accept application/json or application/graphql-response+json; nothing was run`;
}
