import type { ServerResponse } from 'node:http';

/**
 * The headers of every page and asset docjoin serves to browsers (the IDE, the landing page): no other
 * site may frame them (the IDE runs the operation its URL names, so a framed IDE under a decoy button
 * would run a stranger's mutation with the visitor's credentials), and no browser may read a file as
 * another type than it is sent as.
 */
export function setPageHeaders(response: ServerResponse): void {
  response.setHeader('x-frame-options', 'DENY');
  response.setHeader('content-security-policy', "frame-ancestors 'none'");
  response.setHeader('x-content-type-options', 'nosniff');
}
