/**
 * The commit clock: every committed write batch gets the next version. It also tracks the snapshot
 * versions of open transactions, because collections keep undo history only while some snapshot may
 * still need it.
 */
export class VersionClock {
  private current = 0;
  private readonly openSnapshots = new Map<number, number>();

  get now(): number {
    return this.current;
  }

  advance(): number {
    this.current += 1;
    return this.current;
  }

  /** Registers a snapshot at the current version; pair with `releaseSnapshot`. */
  openSnapshot(): number {
    this.openSnapshots.set(this.current, (this.openSnapshots.get(this.current) ?? 0) + 1);
    return this.current;
  }

  releaseSnapshot(snapshot: number): void {
    const count = this.openSnapshots.get(snapshot);
    if (count === undefined) return;
    if (count <= 1) this.openSnapshots.delete(snapshot);
    else this.openSnapshots.set(snapshot, count - 1);
  }

  /** The oldest snapshot still open, or undefined when no transaction is open. */
  oldestOpenSnapshot(): number | undefined {
    let oldest: number | undefined;
    for (const snapshot of this.openSnapshots.keys()) {
      if (oldest === undefined || snapshot < oldest) oldest = snapshot;
    }
    return oldest;
  }
}
