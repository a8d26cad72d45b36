/** How long a measurement keeps half its weight: what the server did a minute ago no longer counts. */
const HALF_LIFE_MS = 5_000;
/** Time spent saturated (decayed) before the rate is trusted. */
const MIN_SATURATED_MS = 500;
/** Releases seen while saturated (their decayed weight) before the rate is trusted: two recent ones. */
const MIN_RELEASE_WEIGHT = 1.5;

/**
 * How fast a bounded resource (the admission slots, the document budget) gives back its units while
 * someone waits for it: its throughput when it is the bottleneck, not the arrival rate. A waiter
 * whose turn, at that rate, comes after its deadline would only time out after holding its place:
 * `turnComesTooLate` says so, and the queue refuses it at once (503 OVERLOADED, Retry-After) instead.
 * Until the resource has been saturated for a while and has released work in that time, the rate is
 * unknown and nobody is refused for it. Older measurements fade (HALF_LIFE_MS), so a rate learnt on
 * heavy operations does not refuse the light ones that come later for long.
 */
export class SaturatedThroughput {
  #units = 0;
  #releases = 0;
  #saturatedMs = 0;
  #saturated = false;
  #lastAt: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.#lastAt = now();
  }

  /** Someone waits for the resource (true), or nobody does. */
  saturated(saturated: boolean): void {
    this.#advance();
    this.#saturated = saturated;
  }

  /** `units` were given back: counted when someone was waiting for them. */
  released(units: number): void {
    this.#advance();
    if (!this.#saturated) return;
    this.#units += units;
    this.#releases += 1;
  }

  /** Units given back per ms while saturated; undefined until enough was seen. */
  ratePerMs(): number | undefined {
    this.#advance();
    if (this.#saturatedMs < MIN_SATURATED_MS || this.#releases < MIN_RELEASE_WEIGHT) return undefined;
    return this.#units / this.#saturatedMs;
  }

  /** Whether `unitsAhead` more units, released at the measured rate, take longer than `remainingMs`. */
  turnComesTooLate(unitsAhead: number, remainingMs: number): boolean {
    const rate = this.ratePerMs();
    return rate !== undefined && unitsAhead > rate * remainingMs;
  }

  #advance(): void {
    const now = this.now();
    const elapsed = now - this.#lastAt;
    if (elapsed <= 0) return;
    this.#lastAt = now;
    const kept = 2 ** (-elapsed / HALF_LIFE_MS);
    this.#units *= kept;
    this.#releases *= kept;
    this.#saturatedMs = this.#saturatedMs * kept + (this.#saturated ? elapsed : 0);
  }
}
