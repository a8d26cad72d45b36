import DataLoader from 'dataloader';
import { keyString } from '../../documents/key-string';
import { aggregatePipelines, readAggregateReplies, type AggregateValue } from '../../operation/planning/aggregate-pipeline';
import type { AggregateRequest } from '../../operation/planning/aggregate-request';
import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import type { AggregateBatcher } from './aggregate-batcher';

export interface FiguresLoad {
  /** The parent's key (null for a root list). */
  readonly parentKey: unknown;
}

/**
 * The figures of one `@aggregate` field for every parent of a level: its aggregates (aggregate-pipeline.ts:
 * the set's figures, each groupBy's groups) sent through the collection's batcher, so they go out with
 * the level's other bounded reads of that collection (another alias, a page of the same children) as
 * ONE command.
 */
export class FiguresLoader {
  readonly #loader: DataLoader<FiguresLoad, AggregateValue, unknown>;

  constructor(
    private readonly aggregate: AggregateField,
    private readonly request: AggregateRequest,
    private readonly batcher: AggregateBatcher,
  ) {
    // No promise cache: every load of a tick resolves with that tick's batch (estimate/README.md).
    this.#loader = new DataLoader((loads) => this.#batch(loads), { cache: false });
  }

  load(load: FiguresLoad): Promise<AggregateValue> {
    return this.#loader.load(load);
  }

  async #batch(loads: readonly FiguresLoad[]): Promise<AggregateValue[]> {
    const keys = new Map<string, unknown>();
    for (const load of loads) keys.set(keyString(load.parentKey), load.parentKey);
    const parts = aggregatePipelines(this.aggregate, this.request, this.aggregate.parentLink ? [...keys.values()] : undefined);
    // Submitted in one moment: the batcher sends them as one command. One document per parent and part.
    const replies = await Promise.all(parts.map(async ({ part, pipeline, documents }) => ({ part, rows: await this.batcher.submit(pipeline, [this.aggregate.coordinate], documents) })));
    const valueOf = readAggregateReplies(this.aggregate, this.request, replies);
    return loads.map((load) => valueOf(load.parentKey));
  }
}
