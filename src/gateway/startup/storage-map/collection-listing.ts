import type { StoredDocument } from '../../documents/stored-document';
import type { ViewDefinition } from './check-view-ids';

/** What one listCollections tells the startup checks. */
export interface CollectionListing {
  /** Every collection and view. */
  readonly names: ReadonlySet<string>;
  /** The views, each with the collection (or view) it is a view on and its pipeline. */
  readonly views: ReadonlyMap<string, ViewDefinition>;
  /** The collections and views created with a default collation other than `simple`, each with it. */
  readonly collations: ReadonlyMap<string, DefaultCollation>;
  /** The capped and time-series collections, each with which it is: MongoDB writes neither in a transaction. */
  readonly untransactable: ReadonlyMap<string, 'capped' | 'time-series'>;
  /** The collections whose `validator` refuses writes (not only warns), each with it. */
  readonly validators: ReadonlyMap<string, StoredDocument>;
}

/** A collection's default collation, as listCollections gives it (the fields a message names). */
export interface DefaultCollation {
  readonly locale: string;
  readonly strength?: number;
}

/** A listCollections entry, in the fields the checks read. */
interface ListedCollection {
  readonly name: string;
  readonly type?: string;
  readonly options?: { readonly viewOn?: unknown; readonly pipeline?: unknown; readonly collation?: DefaultCollation; readonly capped?: unknown; readonly timeseries?: unknown; readonly validator?: unknown; readonly validationAction?: unknown; readonly validationLevel?: unknown };
}

/** The listing of the entries a listCollections (not `nameOnly`) answered with. */
export function collectionListingOf(entries: readonly object[]): CollectionListing {
  const names = new Set<string>();
  const views = new Map<string, ViewDefinition>();
  const collations = new Map<string, DefaultCollation>();
  const untransactable = new Map<string, 'capped' | 'time-series'>();
  const validators = new Map<string, StoredDocument>();
  for (const info of entries as readonly ListedCollection[]) {
    names.add(info.name);
    const options = info.options;
    if (info.type === 'view' && typeof options?.viewOn === 'string') views.set(info.name, { viewOn: options.viewOn, pipeline: Array.isArray(options.pipeline) ? (options.pipeline as StoredDocument[]) : [] });
    if (options?.collation !== undefined && options.collation.locale !== 'simple') collations.set(info.name, options.collation);
    if (info.type === 'timeseries' || options?.timeseries !== undefined) untransactable.set(info.name, 'time-series');
    else if (options?.capped === true) untransactable.set(info.name, 'capped');
    // A validator that only warns (`validationAction: "warn"`), or is off, refuses nothing.
    const refuses = options?.validationAction !== 'warn' && options?.validationLevel !== 'off';
    if (refuses && typeof options?.validator === 'object' && options.validator !== null && Object.keys(options.validator).length > 0) validators.set(info.name, options.validator as StoredDocument);
  }
  return { names, views, collations, untransactable, validators };
}
