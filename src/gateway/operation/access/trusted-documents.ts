import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { sortExecutableDocument } from '@graphql-tools/documents';
import { GraphQLError, Kind, OperationTypeNode, parse, print, visit, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { GatewayOptionError } from '../../errors/internal-errors';
import { PublicErrorCode } from '../../errors/public-error-code';

/**
 * The operations a client may send: graphql-codegen's persisted-documents manifest (the client preset
 * with `persistedDocuments: true` writes it, `{ "sha256:<hex>": "<document>" }`), a file or its content.
 */
export interface TrustedDocumentsOption {
  readonly manifest: string | Readonly<Record<string, string>>;
  /**
   * Refuse every other document (default: in production). Off, the manifest's documents can still be
   * sent by hash alone, and Apollo's automatic persisted queries register any other.
   */
  readonly only?: boolean;
}

/** What Apollo Server's `persistedQueries.cache` must offer (its KeyValueCache). */
export interface PersistedQueryCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean | void>;
}

const HASH = /^sha256:([0-9a-f]{64})$/;
/**
 * Two caches hold clients' texts: the documents automatic persisted queries registered (when other
 * documents are allowed), and the texts whose normalized hash is remembered (a document sent in full is
 * normalized once). Each keeps at most this many, and this many characters (keys and values) together.
 */
const MAX_CACHED_TEXTS = 1_000;
const MAX_CACHED_CHARACTERS = 16 * 1024 * 1024;
const cachedTexts = () => new LRUCache<string, string>({ max: MAX_CACHED_TEXTS, maxSize: MAX_CACHED_CHARACTERS, sizeCalculation: (value, key) => Math.max(1, key.length + value.length) });

/**
 * The trusted documents: a request may name one by its hash alone (Apollo's persisted query extension,
 * `{ "extensions": { "persistedQuery": { "version": 1, "sha256Hash": "<hex>" } } }`), or send its full
 * text, which is trusted when it normalizes (sorted as graphql-codegen sorts it, printed by
 * graphql-js: shapeHash), less its `__typename` fields, to a manifest entry normalized alike: Apollo Client and urql's cache add
 * `__typename` to every selection before they send or hash a document. With `only`, anything else is
 * refused before it runs.
 */
export class TrustedDocuments {
  readonly #texts: ReadonlyMap<string, string>;
  /** The manifest's documents, each as the hash of its normalized shape (shapeHash). */
  readonly #shapes: ReadonlySet<string>;
  readonly #registered = cachedTexts();
  readonly #normalized = cachedTexts();

  private constructor(
    texts: ReadonlyMap<string, string>,
    shapes: ReadonlySet<string>,
    readonly only: boolean,
  ) {
    this.#texts = texts;
    this.#shapes = shapes;
  }

  /** Reads and checks the manifest once, at startup; a problem names the file (or entry) and what is wrong. */
  static load(option: TrustedDocumentsOption, production: boolean): TrustedDocuments {
    const { manifest } = option;
    let entries: Readonly<Record<string, unknown>>;
    const where = typeof manifest === 'string' ? resolve(manifest) : 'the manifest given';
    if (typeof manifest === 'string') {
      try {
        entries = JSON.parse(readFileSync(where, 'utf8')) as Record<string, unknown>;
      } catch (error) {
        throw new GatewayOptionError(`option trustedDocuments.manifest: cannot read ${where} as JSON (${(error as Error).message}); run docjoin codegen with the client preset's persistedDocuments on`);
      }
    } else entries = manifest;
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) throw new GatewayOptionError(`option trustedDocuments.manifest: ${where} must be an object of "sha256:<hex>": "<document>"`);
    const texts = new Map<string, string>();
    const shapes = new Set<string>();
    for (const [key, text] of Object.entries(entries)) {
      const hex = HASH.exec(key)?.[1];
      if (!hex || typeof text !== 'string') throw new GatewayOptionError(`option trustedDocuments.manifest: ${where} has the entry ${JSON.stringify(key)}, which is not "sha256:<64 hex digits>": "<document>"`);
      if (sha256(text) !== hex) throw new GatewayOptionError(`option trustedDocuments.manifest: in ${where}, ${key} is not the hash of its document; generate the manifest again`);
      const parsed = tryParse(text);
      if (!parsed) throw new GatewayOptionError(`option trustedDocuments.manifest: in ${where}, the document of ${key} is not valid GraphQL; generate the manifest again`);
      texts.set(hex, text);
      shapes.add(shapeHash(parsed));
    }
    return new TrustedDocuments(texts, shapes, option.only ?? production);
  }

  get size(): number {
    return this.#texts.size;
  }

  /** Apollo Server's `persistedQueries.cache`: the manifest's documents by hash, and (unless `only`) those clients register. */
  cache(): PersistedQueryCache {
    // Apollo's key is `apq:` and the hash as the client sent it: hex, or the manifest's `sha256:<hex>`.
    const key = (prefixed: string) => prefixed.replace(/^apq:/, '').replace(/^sha256:/, '');
    return {
      get: async (prefixed) => this.#texts.get(key(prefixed)) ?? this.#registered.get(key(prefixed)),
      // With `only`, a client's own printing of a trusted document is kept too, so that it may send its hash alone next time.
      set: async (prefixed, value) => {
        if (!this.only || this.trusts(key(prefixed), undefined, value)) this.#registered.set(key(prefixed), value);
      },
      delete: async (prefixed) => this.#registered.delete(key(prefixed)),
    };
  }

  /** Whether the document Apollo parsed (whose text hashes to `queryHash`) is a trusted one. */
  trusts(queryHash: string, document: DocumentNode | undefined, text: string | undefined): boolean {
    if (this.#texts.has(queryHash.replace(/^sha256:/, ''))) return true;
    let normalized = this.#normalized.get(queryHash);
    if (normalized === undefined) {
      const parsed = document ?? (text === undefined ? undefined : tryParse(text));
      if (!parsed) return false;
      normalized = shapeHash(parsed);
      this.#normalized.set(queryHash, normalized);
    }
    return this.#shapes.has(normalized);
  }

  /** With `only`: refuses (HTTP 400) a request whose document is not in the manifest. */
  check(request: { readonly queryHash: string; readonly document: DocumentNode; readonly source: string }): void {
    if (!this.only || this.trusts(request.queryHash, request.document, request.source)) return;
    throw notInList();
  }

  /**
   * With `only`: the refusal of a request's text before it is parsed or validated, when the manifest
   * does not hold it; undefined for a trusted text or none (a request naming a document by its hash).
   * Validation's errors name the schema's types and fields, which a stranger must not learn by trying.
   */
  refusalOfText(text: string): GraphQLError | undefined {
    if (!this.only || text === '' || this.trusts(sha256(text), undefined, text)) return undefined;
    return notInList();
  }
}

function notInList(): GraphQLError {
  return new GraphQLError('This server runs only its trusted documents (the manifest docjoin codegen writes); send one of them, by its hash or its text', {
    extensions: { code: PublicErrorCode.PERSISTED_QUERY_NOT_IN_LIST, http: { status: 400 } },
  });
}

/**
 * A document's hash as graphql-codegen sorts it, less its unaliased `__typename` fields: printed by
 * graphql-js, which keeps each string as it is (codegen's own printing reduces the spaces inside
 * strings too, so `"ann  smith"` would pass for `"ann smith"`), and followed by the order in which
 * each mutation runs its root fields, which sorting loses inside the fragments spread at its root and
 * which changes what the mutation does.
 */
function shapeHash(document: DocumentNode): string {
  const withoutTypename = visit(document, {
    Field: (node) => (node.name.value === '__typename' && node.alias === undefined ? null : undefined),
  });
  return sha256(`${print(sortExecutableDocument(withoutTypename))}\n${mutationRootOrders(withoutTypename)}`);
}

/** Per mutation, its root fields' response keys in the order graphql-js runs them: first occurrence, through fragments. */
function mutationRootOrders(document: DocumentNode): string {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const orders: string[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION || definition.operation !== OperationTypeNode.MUTATION) continue;
    const keys = new Set<string>();
    const entered = new Set<string>();
    const walk = (selectionSet: SelectionSetNode) => {
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) keys.add((selection.alias ?? selection.name).value);
        else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
        else if (!entered.has(selection.name.value)) {
          entered.add(selection.name.value);
          const fragment = fragments.get(selection.name.value);
          if (fragment) walk(fragment.selectionSet);
        }
      }
    };
    walk(definition.selectionSet);
    orders.push(`${definition.name?.value ?? ''}: ${[...keys].join(' ')}`);
  }
  return orders.join('\n');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function tryParse(text: string): DocumentNode | undefined {
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}
