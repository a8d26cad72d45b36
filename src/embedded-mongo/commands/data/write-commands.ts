import type { Document } from 'bson';
import { documentKey } from '../../storage/document-key';
import type { Store } from '../../storage/store';
import { storableDocument, ValueInterner } from '../../storage/stored-document';
import { badValue, documentArray, optionalBoolean, optionalDocumentArray, optionalInteger, targetCollection, isDocument } from './command-fields';
import { assertArrayFilterIdentifiers, updatedDocument, upsertedDocument } from './document-updates';
import type { DataCommandHandler } from './transaction-scope';
import { withWriteErrors, writeErrorOf } from './write-errors';

/** insert: `{ insert, documents, ordered }` → `{ n, writeErrors? }`. Ordered stops at the first error; unordered tries every document. */
export function insertCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'insert');
    const documents = documentArray(command, 'documents');
    const ordered = optionalBoolean(command, 'ordered') ?? true;
    const view = store.view(store.ensureCollection(context.db, name), transaction);
    let n = 0;
    const writeErrors: Document[] = [];
    const interner = new ValueInterner();
    for (const [index, doc] of documents.entries()) {
      try {
        view.insert(storableDocument(doc, interner));
        n += 1;
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index, transaction));
        if (ordered) break;
      }
    }
    return withWriteErrors({ n }, writeErrors);
  };
}

/**
 * update: `{ update, updates: [{ q, u, upsert, multi, arrayFilters }], ordered }` →
 * `{ n, nModified, upserted?: [{ index, _id }], writeErrors? }`, where n counts matched plus upserted documents.
 */
export function updateCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'update');
    const statements = documentArray(command, 'updates');
    const ordered = optionalBoolean(command, 'ordered') ?? true;
    const view = store.view(store.ensureCollection(context.db, name), transaction);
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
        const spec = { filter, update, arrayFilters: optionalDocumentArray(statement, 'arrayFilters') };
        assertArrayFilterIdentifiers(spec);
        const multi = optionalBoolean(statement, 'multi') ?? false;
        const matched = view.match(filter, multi ? undefined : 1);
        for (const doc of matched) {
          const next = updatedDocument(doc, spec);
          n += 1;
          if (next === undefined) continue;
          view.replace(documentKey(doc._id), next);
          nModified += 1;
        }
        if (matched.length === 0 && (optionalBoolean(statement, 'upsert') ?? false)) {
          const inserted = upsertedDocument(spec);
          view.insert(inserted);
          n += 1;
          upserted.push({ index, _id: inserted._id });
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index, transaction));
        if (ordered) break;
      }
    }
    return withWriteErrors(upserted.length > 0 ? { n, nModified, upserted } : { n, nModified }, writeErrors);
  };
}

/** delete: `{ delete, deletes: [{ q, limit }], ordered }` → `{ n, writeErrors? }`; limit 1 deletes one match, 0 all. */
export function deleteCommand(store: Store): DataCommandHandler {
  return (command, context, transaction) => {
    const name = targetCollection(command, 'delete');
    const statements = documentArray(command, 'deletes');
    const ordered = optionalBoolean(command, 'ordered') ?? true;
    const collection = store.collection(context.db, name);
    if (collection === undefined) return { n: 0 };
    const view = store.view(collection, transaction);
    let n = 0;
    const writeErrors: Document[] = [];
    for (const [index, statement] of statements.entries()) {
      try {
        const filter = statement.q;
        if (!isDocument(filter)) throw badValue(`delete statement ${index} needs a 'q' document`);
        const limit = optionalInteger(statement, 'limit') ?? 0;
        if (limit !== 0 && limit !== 1) throw badValue(`The limit field in delete objects must be 0 or 1. Got ${limit}`);
        for (const doc of view.match(filter, limit === 1 ? 1 : undefined)) {
          view.remove(documentKey(doc._id));
          n += 1;
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(error, index, transaction));
        if (ordered) break;
      }
    }
    return withWriteErrors({ n }, writeErrors);
  };
}
