import type { Db } from 'mongodb';
import { parseWorkloadWindow } from './parse-workload-window';
import type { WorkloadSink } from './workload-capture';
import type { WorkloadWindow } from './workload-types';

/**
 * Flushes as documents of one collection, one per window (`start` and `end` as dates). Its commands
 * carry no `comment`, so the funnel attributes them to no request.
 */
export class WorkloadCollection implements WorkloadSink {
  constructor(
    private readonly db: Db,
    readonly name: string,
  ) {}

  get target(): string {
    return `collection ${this.db.databaseName}.${this.name}`;
  }

  /** Nothing to check: the collection is created by the first flush. */
  async check(): Promise<void> {}

  async write(window: WorkloadWindow): Promise<void> {
    // A copy: insertOne adds an _id to the document it is given.
    await this.db.collection(this.name).insertOne({ ...window });
  }

  /** Every window in the collection, oldest first. */
  async read(): Promise<WorkloadWindow[]> {
    const documents = await this.db.collection(this.name).find({}, { sort: { start: 1, _id: 1 }, projection: { _id: 0 } }).toArray();
    return documents.map((document, index) => parseWorkloadWindow(document, `${this.target}, document ${index + 1}`));
  }
}
