import { badUserInput } from 'docjoin';

/** Caps on user-supplied text in mutations: longer input is BAD_USER_INPUT, never truncated. */
export const TEXT_LIMITS = {
  name: 200,
  comment: 5_000,
  message: 10_000,
} as const;

/** Non-blank text of at most `max` characters (trimmed); the error names the argument. */
export function textArgument(value: string, argumentName: string, max: number): string {
  const text = value.trim();
  if (text.length === 0) throw badUserInput(`${argumentName} must not be blank`, { argumentName });
  if (text.length > max) throw badUserInput(`${argumentName} must be at most ${max} characters, got ${text.length}`, { argumentName });
  return text;
}

/** An IPv4 or IPv6 address as hosts store it. */
export function ipaddrArgument(value: string, argumentName = 'ipaddr'): string {
  const text = value.trim();
  const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
  const ipv6 = /^[0-9a-fA-F:]{2,39}$/;
  if (!ipv4.test(text) && !(text.includes(':') && ipv6.test(text))) {
    throw badUserInput(`${argumentName} must be an IPv4 or IPv6 address, got ${JSON.stringify(value.slice(0, 60))}`, { argumentName });
  }
  return text;
}

/** An integer in [min, max]. */
export function intArgument(value: number, argumentName: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw badUserInput(`${argumentName} must be an integer from ${min} to ${max}, got ${value}`, { argumentName });
  return value;
}

/** A non-negative price. */
export function priceArgument(value: number, argumentName: string): number {
  if (!Number.isFinite(value) || value < 0) throw badUserInput(`${argumentName} must be a non-negative number, got ${value}`, { argumentName });
  return value;
}
