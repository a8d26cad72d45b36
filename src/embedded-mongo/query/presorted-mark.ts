/**
 * Marks a `$topN`/`$bottomN`/`$top`/`$bottom` accumulator spec whose group members already arrive
 * in its `sortBy` order (stably sorted), so it can take the first or last n members instead of
 * sorting them again. A symbol, so no client-sent spec can carry it.
 */
export const PRESORTED = Symbol('presorted');
