/**
 * docjoin's lock documents, written so that transactions copying or referencing a document conflict
 * with those changing it (writes/source-locks.ts). Their commands count as round trips; what they
 * modify is docjoin's bookkeeping, not the data, so it counts in no write report.
 */
export const SOURCE_LOCKS = 'docjoin_locks';
