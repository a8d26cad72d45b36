import { GraphQLError } from 'graphql';
import { LRUCache } from 'lru-cache';
import { PublicErrorCode } from '../../errors/public-error-code';

/** A leaky bucket of cost points per client: `capacity` at most, `restoreRate` points back per second. */
export interface BudgetOption {
  readonly capacity: number;
  readonly restoreRate: number;
}

/** What `extensions.cost.throttleStatus` reports of the client's bucket after the request (Shopify's model). */
export interface ThrottleStatus {
  readonly maximumAvailable: number;
  readonly currentlyAvailable: number;
  readonly restoreRate: number;
}

/** An operation's points: one per MongoDB round trip and one per document it reads (its estimate before, its measure after). */
export function costPoints(cost: { readonly roundTrips: number; readonly documents: number }): number {
  return cost.roundTrips + cost.documents;
}

/** Whose budget a request spends: `subject:<sub>` for a viewer with a subject, else its address's network. */
export function budgetClient(subject: string | undefined, address: string | undefined): string {
  return subject !== undefined ? `subject:${subject}` : `address:${clientNetwork(address)}`;
}

/**
 * Whose budget an anonymous request spends: its IPv4 address, or its IPv6 /64 (one host's addresses
 * rotate within it, so each would otherwise get a bucket of its own).
 */
function clientNetwork(address: string | undefined): string {
  if (address === undefined) return 'local';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const groups = [...head.split(':').filter(Boolean), ...Array<string>(Math.max(0, 8 - head.split(':').filter(Boolean).length - tail.split(':').filter(Boolean).length)).fill('0'), ...tail.split(':').filter(Boolean)];
  return `${groups.slice(0, 4).map((group) => group.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Clients remembered at once; a client forgotten comes back with a full bucket, which is what it would have after a pause. */
const MAX_CLIENTS = 100_000;

interface Bucket {
  available: number;
  /** When `available` was last brought up to date (ms). */
  at: number;
}

/**
 * Each client's bucket (the token's subject, else the address). An operation takes its estimated
 * points before it runs, or is refused (429 THROTTLED with Retry-After) while its client's bucket holds
 * fewer; once it has run, the difference between the estimate and its measured points goes back.
 */
export class ClientBudgets {
  readonly #buckets = new LRUCache<string, Bucket>({ max: MAX_CLIENTS });

  constructor(
    readonly option: BudgetOption,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes `points` from `client`'s bucket; throws THROTTLED when it holds fewer, COST_LIMIT_EXCEEDED when the bucket never could. */
  take(client: string, points: number): BudgetCharge {
    const { capacity, restoreRate } = this.option;
    if (points > capacity) {
      throw new GraphQLError(`Operation rejected before execution: its estimated cost of ${points} points exceeds the budget's capacity of ${capacity}; ask for less`, {
        extensions: { code: PublicErrorCode.COST_LIMIT_EXCEEDED, cost: { requestedPoints: points, maximumAvailable: capacity }, http: { status: 400 } },
      });
    }
    const bucket = this.#refilled(client);
    if (bucket.available < points) {
      const waitSeconds = Math.ceil((points - bucket.available) / restoreRate);
      throw new GraphQLError(`Throttled: this operation needs ${points} points and ${Math.floor(bucket.available)} of ${capacity} are available; try again in ${waitSeconds} s`, {
        extensions: {
          code: PublicErrorCode.THROTTLED,
          cost: { requestedPoints: points, throttleStatus: this.#status(bucket) },
          http: { status: 429, headers: new Map([['retry-after', String(waitSeconds)]]) },
        },
      });
    }
    bucket.available -= points;
    return new BudgetCharge(this, client, points);
  }

  /** Gives `points` back to `client`'s bucket (never above its capacity); takes more when negative. */
  adjust(client: string, points: number): void {
    const bucket = this.#refilled(client);
    bucket.available = Math.max(0, Math.min(this.option.capacity, bucket.available + points));
  }

  status(client: string): ThrottleStatus {
    return this.#status(this.#refilled(client));
  }

  #status(bucket: Bucket): ThrottleStatus {
    const { capacity, restoreRate } = this.option;
    return { maximumAvailable: capacity, currentlyAvailable: Math.floor(bucket.available), restoreRate };
  }

  #refilled(client: string): Bucket {
    const now = this.now();
    let bucket = this.#buckets.get(client);
    if (!bucket) this.#buckets.set(client, (bucket = { available: this.option.capacity, at: now }));
    bucket.available = Math.min(this.option.capacity, bucket.available + ((now - bucket.at) / 1000) * this.option.restoreRate);
    bucket.at = now;
    return bucket;
  }
}

/** The points one operation took, settled once against what it measured. */
export class BudgetCharge {
  #settled = false;

  constructor(
    private readonly budgets: ClientBudgets,
    readonly client: string,
    readonly requestedPoints: number,
  ) {}

  /** Gives back what the estimate took beyond `actualPoints` (or takes what it lacked); once. */
  settle(actualPoints: number): void {
    if (this.#settled) return;
    this.#settled = true;
    this.budgets.adjust(this.client, this.requestedPoints - actualPoints);
  }
}
