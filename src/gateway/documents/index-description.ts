/** An index as the startup check reads it: its key, whether it is unique, and which documents it holds. */
export interface IndexDescription {
  readonly key: Readonly<Record<string, unknown>>;
  readonly unique: boolean;
  /** Its `partialFilterExpression`: the index holds (and a unique one compares) only the documents it matches. */
  readonly partialFilter?: Readonly<Record<string, unknown>>;
  /** The collection holding it, when not the one asked for: a view's indexes are its source collection's. */
  readonly collection?: string;
}
