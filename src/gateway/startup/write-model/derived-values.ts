import type { DerivedValue } from '../storage-map/validate-against-database';
import type { WriteModel } from './write-model-types';

/** Every value `model`'s writes keep in step, with the collection it comes from and the one holding it (validateAgainstDatabase's `derived`). */
export function derivedValues(model: WriteModel): DerivedValue[] {
  return [
    ...model.snapshots.map((location) => ({ coordinate: location.coordinate, what: 'snapshot', from: location.sourceCollection, heldIn: location.collection })),
    ...model.boundedArrays.map((array) => ({ coordinate: array.coordinate, what: 'bounded array', from: array.childCollection, heldIn: array.collection })),
    ...model.inverses.map((inverse) => ({ coordinate: inverse.coordinate, what: 'inverse array', from: inverse.truthCollection, heldIn: inverse.collection })),
    ...model.counters.map((counter) => ({ coordinate: counter.coordinate, what: 'counter', from: counter.source.kind === 'children' ? counter.source.childCollection : counter.source.inverse.truthCollection, heldIn: counter.collection })),
    ...model.totals.map((total) => ({ coordinate: total.coordinate, what: 'total', from: total.childCollection, heldIn: total.collection })),
  ];
}
