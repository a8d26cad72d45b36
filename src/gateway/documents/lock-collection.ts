/**
 * docjoin's own collection of lock documents (writes/reference-locks.ts): what a write unit bumps
 * there is a round trip, but no data of the schema's.
 */
export const LOCK_COLLECTION = 'docjoin_locks';
