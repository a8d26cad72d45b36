/**
 * The rules of thumb behind each piece of advice, after the modeling articles docjoin comes from
 * (MongoDB's "6 rules of thumb", the Cosmos DB and Couchbase modeling guides), in one line each.
 */
export const RULES = {
  keep: 'the data and the workload show nothing the current shape handles badly',
  widenSnapshot: 'denormalize the fields reads need when reads far outnumber writes: a copy that holds them saves the join',
  addSnapshot: 'denormalize when the read-to-write ratio is high: a copy of the few fields reads select saves a join on every read',
  switchDefault: 'read from the copy you already keep: a join whose selections the snapshot holds spends a round trip for nothing',
  dropSnapshot: 'denormalize only when the read-to-write ratio is high: here each read saved costs many copies rewritten',
  boundArray: 'arrays must not grow without bound: keep the newest entries embedded (the subset pattern), reference the rest',
  stopEmbedding: 'high-cardinality children reference their parent: embedding them bloats the parent toward the 16 MB limit',
  readByLookup: 'join in the database when the network is slow: one command per parent read instead of one per level saves a round trip per level, and costs a copy of each shared document per parent',
  addCounter: 'precompute what is read far more often than it changes (the computed pattern): a count kept in the parent saves counting the children on every read',
  addTotal: 'precompute what is read far more often than it changes (the computed pattern): a sum kept in the parent saves adding up the children on every read',
} as const;
