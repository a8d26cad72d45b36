/** A stored document as the gateway sees it. */
export type StoredDocument = Record<string, unknown>;
