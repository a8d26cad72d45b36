import type { SourceChange } from '../request/cost/cost-ledger';
import type { PlannedUpdate } from './write-steps';
import type { WriteModel } from '../startup/write-model/write-model-types';

/** Called by a write unit for each source document it changed (after the statement matched it): see SourceChange. */
export type SourceChangeListener = (change: SourceChange) => void;

/**
 * The counters and totals `planned` moves, one change per statement and rule: neither is set by an
 * update of its own document but by the `$inc` its counted writes plan (insert, delete, reference
 * change, an update of a summed field), on the parent picked by its key.
 */
export function countersMoved(model: WriteModel, planned: readonly PlannedUpdate[]): SourceChange[] {
  const changes: SourceChange[] = [];
  for (const { collection, statement } of planned) {
    const increments = statement.update.$inc;
    if (typeof increments !== 'object' || increments === null) continue;
    for (const counter of [...model.counters, ...model.totals]) {
      if (counter.collection !== collection || !(counter.path in increments)) continue;
      const [typeName, fieldName] = counter.coordinate.split('.') as [string, string];
      changes.push({ typeName, fields: [fieldName], id: statement.filter._id });
    }
  }
  return changes;
}
