import type { WriteModel } from '../startup/write-model/write-model-types';

/** A rule read from the write model, which does not change once built: computed once per model and `keyOf` its argument. */
export function oncePerModel<A, T>(keyOf: (argument: A) => string, compute: (model: WriteModel, argument: A) => T): (model: WriteModel, argument: A) => T {
  const computed = new WeakMap<WriteModel, Map<string, T>>();
  return (model, argument) => {
    let byKey = computed.get(model);
    if (!byKey) computed.set(model, (byKey = new Map()));
    const key = keyOf(argument);
    if (!byKey.has(key)) byKey.set(key, compute(model, argument));
    return byKey.get(key)!;
  };
}
