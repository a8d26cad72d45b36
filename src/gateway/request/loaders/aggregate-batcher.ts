import type { MongoFunnel, RequestScope } from '../mongo/mongo-funnel';
import type { StoredDocument } from '../../documents/stored-document';

/** Marks which submission a document of a combined reply answers; removed before anyone sees it. */
const BATCH_FIELD = '__docjoinBatch';

interface Submission {
  readonly pipeline: readonly StoredDocument[];
  readonly fields: readonly string[];
  readonly batchSize: number;
  resolve(documents: StoredDocument[]): void;
  reject(error: unknown): void;
}

/**
 * Combines the aggregates that the loaders of ONE collection send in the same moment (the loads made in
 * one microtask drain: two aliases of a relation with different filters, two relations to the same
 * children under one parent level, a connection's page and its count, `@aggregate` figures):
 * ONE aggregate, the first pipeline leading and each further one a `$unionWith` branch, every document
 * tagged with its pipeline's number so the reply splits back exactly. A lone pipeline goes as it is.
 * Only pipelines whose reply size is known come here: bounded pages (a per-parent limit), and counts and
 * figures (a document per parent and part).
 */
export class AggregateBatcher {
  #pending: Submission[] = [];

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly request: RequestScope,
    readonly collection: string,
  ) {}

  submit(pipeline: readonly StoredDocument[], fields: readonly string[], batchSize: number): Promise<StoredDocument[]> {
    return new Promise((resolve, reject) => {
      // DataLoader dispatches each loader's batch in its own process.nextTick, all queued while the
      // microtasks in which the loads were made ran; a flush queued behind them sees every one of them,
      // and none of a later moment. (A setImmediate would also take in the batches of whatever other
      // replies the same turn of the event loop delivered: two root fields' children merged or not,
      // depending on how the network timed their replies.)
      if (this.#pending.length === 0) process.nextTick(() => void this.#flush());
      this.#pending.push({ pipeline, fields, batchSize, resolve, reject });
    });
  }

  async #flush(): Promise<void> {
    const submissions = this.#pending;
    this.#pending = [];
    const fields = [...new Set(submissions.flatMap((submission) => submission.fields))];
    const batchSize = submissions.reduce((sum, submission) => sum + submission.batchSize, 0);
    try {
      if (submissions.length === 1) {
        submissions[0]!.resolve(await this.funnel.aggregate({ ...this.request, fields }, this.collection, submissions[0]!.pipeline, { batchSize }));
        return;
      }
      const tagged = submissions.map((submission, index) => [...submission.pipeline, { $addFields: { [BATCH_FIELD]: index } }]);
      const [lead, ...rest] = tagged;
      const pipeline = [...lead!, ...rest.map((branch) => ({ $unionWith: { coll: this.collection, pipeline: branch } }))];
      const documents = await this.funnel.aggregate({ ...this.request, fields }, this.collection, pipeline, { batchSize });
      const split: StoredDocument[][] = submissions.map(() => []);
      for (const document of documents) {
        const index = document[BATCH_FIELD] as number;
        delete document[BATCH_FIELD];
        split[index]!.push(document);
      }
      submissions.forEach((submission, index) => submission.resolve(split[index]!));
    } catch (error) {
      for (const submission of submissions) submission.reject(error);
    }
  }
}
