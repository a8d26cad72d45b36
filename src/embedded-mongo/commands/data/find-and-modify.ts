import type { Document } from 'bson';
import { applyProjection } from '../../query';
import { documentKey } from '../../storage/document-key';
import type { Store } from '../../storage/store';
import { CommandError } from '../../protocol/command-error';
import { badValue, isDocument, optionalBoolean, optionalDocument, optionalDocumentArray, targetCollection } from './command-fields';
import { assertArrayFilterIdentifiers, insertUpserted, updatedDocument } from './document-updates';
import { collectionScope, requestedScope } from './operation-scope';
import type { DataCommandHandler } from './transaction-scope';

/**
 * findAndModify: `{ findAndModify, query, sort, remove | update, new, fields, upsert, arrayFilters, collation, let }` →
 * `{ lastErrorObject: { n, updatedExisting?, upserted? }, value }`. `value` is the document before the
 * change, or after it with `new: true`, projected by `fields`.
 */
export function findAndModifyCommand(store: Store): DataCommandHandler {
  return async (command, context, transaction) => {
    const name = targetCollection(command, 'findAndModify' in command ? 'findAndModify' : 'findandmodify');
    const filter = optionalDocument(command, 'query') ?? {};
    const sort = optionalDocument(command, 'sort');
    const fields = optionalDocument(command, 'fields');
    const remove = optionalBoolean(command, 'remove') ?? false;
    const returnNew = optionalBoolean(command, 'new') ?? false;
    const upsert = optionalBoolean(command, 'upsert') ?? false;
    const update: unknown = command.update;
    if (remove && update !== undefined) throw badValue('Cannot specify both an update and remove=true');
    if (!remove && update === undefined) throw new CommandError(9, 'FailedToParse', 'Either an update or remove=true must be specified');
    if (remove && (upsert || returnNew)) throw badValue('Cannot specify both upsert=true and remove=true, or new=true with remove=true');
    if (!remove && !isDocument(update) && !(Array.isArray(update) && update.every(isDocument))) {
      throw badValue(`'update' must be a document or a pipeline`);
    }

    const requested = requestedScope(command);
    // a view's name fails here with 166 CommandNotSupportedOnView; a missing collection matches nothing, and only an upsert creates it
    const missing = store.collection(context.db, name) === undefined && store.viewCatalog.get(context.db, name) === undefined;
    if (missing && !upsert) return { lastErrorObject: remove ? { n: 0 } : { n: 0, updatedExisting: false }, value: null };
    const view = store.view(store.ensureCollection(context.db, name, transaction), transaction);
    const scope = collectionScope(requested, view.collection.defaultCollation);
    const spec = remove ? undefined : { filter, update: update as Document | Document[], arrayFilters: optionalDocumentArray(command, 'arrayFilters'), scope };
    if (spec !== undefined) assertArrayFilterIdentifiers(spec);
    const project = (doc: Document | undefined): Document | null =>
      doc === undefined ? null : fields === undefined ? doc : applyProjection(doc, fields, filter);
    // a transaction holding the target makes this wait for its end; then the whole command runs again, as MongoDB retries it
    for (;;) {
      const target = view.find(filter, { sort, limit: 1, scope })[0];
      if (spec === undefined) {
        if (target === undefined) return { lastErrorObject: { n: 0 }, value: null };
        const blocker = view.writeBlocker(documentKey(target._id), null);
        if (blocker !== undefined) {
          await blocker;
          continue;
        }
        view.remove(documentKey(target._id));
        return { lastErrorObject: { n: 1 }, value: project(target) };
      }
      if (target !== undefined) {
        const next = updatedDocument(target, spec);
        const blocker = next === undefined ? undefined : view.writeBlocker(documentKey(target._id), next);
        if (blocker !== undefined) {
          await blocker;
          continue;
        }
        if (next !== undefined) view.replace(documentKey(target._id), next);
        return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? (next ?? target) : target) };
      }
      if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null };
      const inserted = await insertUpserted(view, spec);
      if (inserted === undefined) continue;
      return {
        lastErrorObject: { n: 1, updatedExisting: false, upserted: inserted._id },
        value: returnNew ? project(inserted) : null,
      };
    }
  };
}
