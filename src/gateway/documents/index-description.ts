/** An index as the startup check reads it: its key, and whether it is unique. */
export interface IndexDescription {
  readonly key: Readonly<Record<string, unknown>>;
  readonly unique: boolean;
  /** The collection holding it, when not the one asked for: a view's indexes are its source collection's. */
  readonly collection?: string;
}
