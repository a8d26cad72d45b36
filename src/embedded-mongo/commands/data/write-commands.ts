import type { Document } from 'bson';
import { compileFilter } from '../../query';
import { namedError } from '../../protocol/command-error';
import type { CollectionView } from '../../storage/collection-view';
import { documentKey } from '../../storage/document-key';
import { viewIsNotACollection, type Store } from '../../storage/store';
import { storableDocument, ValueInterner } from '../../storage/stored-document';
import { badValue, documentArray, optionalBoolean, optionalDocumentArray, optionalInteger, targetCollection, isDocument } from './command-fields';
import { assertArrayFilterIdentifiers, insertUpserted, updatedDocument, type UpdateSpec } from './document-updates';
import { collectionScope, letVariables, requestedScope } from './operation-scope';
import { assertKnownStatementFields } from './statement-fields';
import type { DataCommandHandler } from './transaction-scope';
import { stopsAfterError, withWriteErrors, writeErrorOf } from './write-errors';

/**
 * insert: `{ insert, documents, ordered }` → `{ n, writeErrors? }`. Ordered stops at the first error;
 * unordered tries every document (except in a transaction, which stops at the first error too).
 */
export function insertCommand(store: Store): DataCommandHandler {
  return async (command, context, transaction) => {
    const name = targetCollection(command, 'insert');
    const documents = documentArray(command, 'documents');
    const ordered = optionalBoolean(command, 'ordered') ?? true;
    // a view fails each statement (writeErrors), as MongoDB does
    const isView = store.viewCatalog.get(context.db, name) !== undefined;
    const view = isView ? undefined : store.view(store.ensureCollection(context.db, name, transaction), transaction);
    let n = 0;
    const writeErrors: Document[] = [];
    const interner = new ValueInterner();
    for (const [index, doc] of documents.entries()) {
      try {
        if (view === undefined) throw viewIsNotACollection(context.db, name);
        const stored = storableDocument(doc, interner);
        const id = documentKey(stored._id);
        // a transaction holding this _id or one of its unique keys makes the insert wait for its end
        for (let blocker = view.writeBlocker(id, stored); blocker !== undefined; blocker = view.writeBlocker(id, stored)) await blocker;
        view.insert(stored);
        n += 1;
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index));
        if (stopsAfterError(ordered, transaction !== undefined)) break;
      }
    }
    return withWriteErrors({ n }, writeErrors);
  };
}

/**
 * update: `{ update, updates: [{ q, u, upsert, multi, arrayFilters, collation }], ordered, let }` →
 * `{ n, nModified, upserted?: [{ index, _id }], writeErrors? }`, where n counts matched plus upserted documents.
 * A statement's collation (else the collection's default) applies to its filter and update; `let`
 * variables reach `$expr` in filters and pipeline updates.
 */
export function updateCommand(store: Store): DataCommandHandler {
  return async (command, context, transaction) => {
    const name = targetCollection(command, 'update');
    const statements = documentArray(command, 'updates');
    assertKnownStatementFields('update', statements);
    const ordered = optionalBoolean(command, 'ordered') ?? true;
    const variables = letVariables(command);
    const isView = store.viewCatalog.get(context.db, name) !== undefined;
    // A missing collection matches nothing: only an upsert creates it.
    const existing = isView ? undefined : store.collection(context.db, name);
    let view = existing === undefined ? undefined : store.view(existing, transaction);
    const collectionView = (): CollectionView => (view ??= store.view(store.ensureCollection(context.db, name, transaction), transaction));
    let n = 0;
    let nModified = 0;
    const upserted: Document[] = [];
    const writeErrors: Document[] = [];
    for (const [index, statement] of statements.entries()) {
      try {
        const filter = statement.q;
        const update: unknown = statement.u;
        if (!isDocument(filter)) throw badValue(`update statement ${index} needs a 'q' document`);
        if (!isDocument(update) && !(Array.isArray(update) && update.every(isDocument))) {
          throw badValue(`update statement ${index} needs a 'u' document or pipeline`);
        }
        const requested = requestedScope(statement, variables);
        if (isView) throw viewIsNotACollection(context.db, name);
        const scope = collectionScope(requested, view?.collection.defaultCollation);
        const spec = { filter, update, arrayFilters: optionalDocumentArray(statement, 'arrayFilters'), scope };
        assertArrayFilterIdentifiers(spec);
        const multi = optionalBoolean(statement, 'multi') ?? false;
        if (multi && isDocument(update) && !Object.keys(update).some((key) => key.startsWith('$'))) {
          throw namedError('FailedToParse', 'multi update is not supported for replacement-style update');
        }
        const upsert = optionalBoolean(statement, 'upsert') ?? false;
        if (view === undefined && !upsert) continue;
        const target = collectionView();
        for (;;) {
          const matched = target.match(filter, multi ? undefined : 1, scope);
          for (const doc of matched) {
            const outcome = await updateMatched(target, doc, spec);
            if (outcome === 'gone') continue;
            n += 1;
            if (outcome === 'modified') nModified += 1;
          }
          if (matched.length > 0 || !upsert) break;
          const inserted = await insertUpserted(target, spec);
          if (inserted === undefined) continue;
          n += 1;
          upserted.push({ index, _id: inserted._id });
          break;
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index));
        if (stopsAfterError(ordered, transaction !== undefined)) break;
      }
    }
    return withWriteErrors(upserted.length > 0 ? { n, nModified, upserted } : { n, nModified }, writeErrors);
  };
}

/**
 * Updates one matched document. When an open transaction holds it, waits for that transaction to
 * end, then re-reads the document and re-checks the filter, as MongoDB retries a write conflict
 * outside transactions ('gone': it no longer matches).
 */
async function updateMatched(view: CollectionView, doc: Document, spec: UpdateSpec): Promise<'modified' | 'unchanged' | 'gone'> {
  const id = documentKey(doc._id);
  let current: Document | undefined = doc;
  let matches: ((candidate: Document) => boolean) | undefined;
  for (;;) {
    const next = updatedDocument(current, spec);
    if (next === undefined) return 'unchanged';
    const blocker = view.writeBlocker(id, next);
    if (blocker === undefined) {
      view.replace(id, next);
      return 'modified';
    }
    await blocker;
    current = view.get(id);
    matches ??= compileFilter(spec.filter, spec.scope);
    if (current === undefined || !matches(current)) return 'gone';
  }
}

/**
 * delete: `{ delete, deletes: [{ q, limit, collation }], ordered, let }` → `{ n, writeErrors? }`;
 * limit 1 deletes one match, 0 all.
 */
export function deleteCommand(store: Store): DataCommandHandler {
  return async (command, context, transaction) => {
    const name = targetCollection(command, 'delete');
    const statements = documentArray(command, 'deletes');
    assertKnownStatementFields('delete', statements);
    const ordered = optionalBoolean(command, 'ordered') ?? true;
    const variables = letVariables(command);
    const isView = store.viewCatalog.get(context.db, name) !== undefined;
    const collection = store.collection(context.db, name);
    if (collection === undefined && !isView) return { n: 0 };
    const view = collection === undefined ? undefined : store.view(collection, transaction);
    let n = 0;
    const writeErrors: Document[] = [];
    for (const [index, statement] of statements.entries()) {
      try {
        const filter = statement.q;
        if (!isDocument(filter)) throw badValue(`delete statement ${index} needs a 'q' document`);
        const limit = optionalInteger(statement, 'limit') ?? 0;
        if (limit !== 0 && limit !== 1) throw badValue(`The limit field in delete objects must be 0 or 1. Got ${limit}`);
        const requested = requestedScope(statement, variables);
        if (view === undefined) throw viewIsNotACollection(context.db, name);
        const scope = collectionScope(requested, view.collection.defaultCollation);
        let matches: ((candidate: Document) => boolean) | undefined;
        for (const doc of view.match(filter, limit === 1 ? 1 : undefined, scope)) {
          const id = documentKey(doc._id);
          let blocker = view.writeBlocker(id, null);
          while (blocker !== undefined) {
            await blocker;
            blocker = view.writeBlocker(id, null);
          }
          const current = view.get(id);
          if (current === undefined) continue;
          if (current !== doc) {
            // it changed while this delete waited: delete it only if it still matches
            matches ??= compileFilter(filter, scope);
            if (!matches(current)) continue;
          }
          view.remove(id);
          n += 1;
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index));
        if (stopsAfterError(ordered, transaction !== undefined)) break;
      }
    }
    return withWriteErrors({ n }, writeErrors);
  };
}

