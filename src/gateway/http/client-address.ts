import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { GatewayOptionError } from '../errors/internal-errors';

/**
 * The proxies in front of docjoin whose `X-Forwarded-For` it believes: addresses, CIDR ranges, or
 * proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`). false (the default): none, so a client's
 * address is its socket's.
 */
export type TrustProxyOption = false | readonly string[];

/** Where a request came from: its socket's address, or, through the trusted proxies, the first address before them in `X-Forwarded-For`. */
export type ClientAddressOf = (request: IncomingMessage) => string | undefined;

const EXAMPLE = '["loopback"] or ["10.0.0.0/8", "fd00::/8"]';

/** The option checked: false, or a list of entries proxy-addr compiles. */
export function trustProxyOption(value: unknown): TrustProxyOption {
  if (value === undefined || value === false) return false;
  const entries = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(entries) || entries.length === 0 || !entries.every((entry) => typeof entry === 'string' && entry.trim() !== '')) {
    throw new GatewayOptionError(`option trustProxy must be false or the proxies whose X-Forwarded-For docjoin believes, e.g. ${EXAMPLE}, got ${JSON.stringify(value)}`);
  }
  const list = Object.freeze((entries as string[]).map((entry) => entry.trim()));
  compiled(list);
  return list;
}

/**
 * Reads a request's client address: its socket's, or through the trusted proxies the nearest address in
 * `X-Forwarded-For` that is not one (proxy-addr's rule). Some proxies forward `ip:port` (`[ipv6]:port`):
 * the port is dropped before the trust check, so a trusted hop is still recognised and a client's
 * address is the same whatever port its connection came from.
 */
export function clientAddressReader(trustProxy: TrustProxyOption): ClientAddressOf {
  if (trustProxy === false) return (request) => request.socket.remoteAddress;
  const trusted = compiled(trustProxy);
  return (request) => {
    if (request.socket.remoteAddress === undefined) return undefined;
    const hops = proxyAddr.all(request).map(withoutPort);
    return hops.find((address, index) => index === hops.length - 1 || !trusted(address, index));
  };
}

function withoutPort(address: string): string {
  const ipv4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  if (ipv4) return ipv4[1]!;
  const ipv6 = /^\[([0-9A-Fa-f:.]+)\](?::\d+)?$/.exec(address);
  return ipv6 ? ipv6[1]! : address;
}

function compiled(list: readonly string[]): ReturnType<typeof proxyAddr.compile> {
  try {
    return proxyAddr.compile([...list]);
  } catch (error) {
    throw new GatewayOptionError(`option trustProxy: ${error instanceof Error ? error.message : String(error)}; give addresses, CIDR ranges or loopback, linklocal, uniquelocal, e.g. ${EXAMPLE}`);
  }
}
