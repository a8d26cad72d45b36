import type { MutationWritePlans, SnapshotLocation, WriteModel } from '../gateway';

/**
 * The hand-written mutations whose write units insert documents holding a snapshot's copies, one line
 * each, and what keeps their copies whole once the snapshot copies more: the write unit reads the
 * sources itself, or, for sources the resolver passes in (`preloaded`), requireOne and requireMany read
 * every copied field whatever the resolver asks for, and a source passed from elsewhere without one is
 * refused at its first write.
 */
export function describeCustomWriters(plans: MutationWritePlans, model: WriteModel, locations: readonly SnapshotLocation[], added: readonly string[]): string[] {
  const collections = new Set(locations.map((location) => location.collection));
  const coordinates = new Set(locations.map((location) => location.coordinate));
  const fields = added.length > 0 ? added.join(', ') : 'the copied fields';
  const lines: string[] = [];
  for (const [mutation, plan] of Object.entries(plans)) {
    for (const step of plan) {
      if (step.kind !== 'insert' || !collections.has(model.storageMap.types.get(step.typeName)?.collection ?? '')) continue;
      const passed = (step.preloaded ?? []).filter((coordinate) => coordinates.has(coordinate));
      lines.push(
        passed.length > 0
          ? `custom mutation ${mutation} inserts ${step.typeName} with the sources of ${passed.join(', ')} it passes in: those from requireOne/requireMany carry ${fields}; one read elsewhere without them is refused at its first write (the resolver then needs requireOne/requireMany, or ${fields} in its own read)`
          : `custom mutation ${mutation} inserts ${step.typeName}: its write unit reads the sources itself, with ${fields}`,
      );
    }
  }
  return lines;
}
