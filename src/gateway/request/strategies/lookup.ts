import { documentHoldingKey, holdsKeyAt, isKeyValue, parentKeysOf } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import { filterAndSort } from '../../operation/planning/in-memory-list';
import { asksForList } from '../../operation/planning/requested-list';
import type { JoinShape } from '../../startup/storage-map/storage-map-types';
import type { RelationRequest, RelationValue } from './resolver-types';

/**
 * A join read inside the parent's own command: the parent's `$lookup` brought the documents, which
 * settleLookups handed to the parent under `as` (projected-read.ts handedOut; plan-projection.ts put the
 * lookup in its read; relation-resolver.ts joins a parent read without it, or copied by a resolver of
 * its own, which does not carry them). A join by key hands them back in the order of the parent's keys, repeated keys repeated and
 * filters and order applied as the join applies them; a reverse join's pipeline already paged them.
 */
export function resolveLookup(shape: JoinShape, request: RelationRequest, joined: readonly StoredDocument[]): RelationValue {
  const { context, info, cost, field } = request;
  cost.selection(context.selectedFields(info, shape.targetType, request.requested));
  // What the parent's lookup sent, once: a parent document several parents share (read once by their
  // join) is resolved for each of them with the same documents.
  if (firstSent(context.ledger, joined)) cost.documents(joined.length);
  cost.delivered(joined.length);
  if (shape.direction === 'byReference') {
    const parentKey = readPath(request.parent, shape.localField);
    if (!isKeyValue(parentKey)) return field.isList ? [] : null;
    cost.keys(1);
    // As the join regroups its children: by the key each holds, a child holding an array of keys under each
    // of them, and a parent holding an array of keys has the children of each (the lookup matched them so).
    const children = childrenHoldingKeys(joined, shape.foreignField, parentKeysOf(parentKey));
    return field.isList ? children : (children[0] ?? null);
  }
  const keyValue = readPath(request.parent, shape.localField);
  // The first document holding a key, as the join's loader keeps one per key.
  const holdingKey = documentHoldingKey(joined, shape.foreignField);
  if (!field.isList) {
    const key = Array.isArray(keyValue) ? keyValue[0] : keyValue;
    if (!isKeyValue(key)) return null;
    cost.keys(1);
    const document = holdingKey(key) ?? null;
    if (document === null) {
      cost.dangling(1);
      cost.parentDangled();
    }
    return document;
  }
  const keys = (Array.isArray(keyValue) ? keyValue : [keyValue]).filter(isKeyValue);
  cost.keys(keys.length);
  const found: StoredDocument[] = [];
  for (const key of keys) {
    const document = holdingKey(key);
    if (document) found.push(document);
  }
  cost.dangling(keys.length - found.length);
  if (keys.length > 0 && found.length === 0) cost.parentDangled();
  const { requested } = request;
  return asksForList(requested) ? filterAndSort(found, requested.filters, requested.sort) : found;
}

/** The children holding one of `keys` at `foreignField`, in their order (a loop: a lookup asks it of every parent). */
function childrenHoldingKeys(joined: readonly StoredDocument[], foreignField: string, keys: readonly unknown[]): StoredDocument[] {
  const children: StoredDocument[] = [];
  for (const child of joined) {
    for (const key of keys) {
      if (!holdsKeyAt(child, foreignField, key)) continue;
      children.push(child);
      break;
    }
  }
  return children;
}

/**
 * Per request (its ledger), the looked-up lists whose documents a field has counted: each is one
 * parent document's. A Set, not a WeakSet: it lives as long as the request, whose answer holds the lists anyway.
 */
const SENT = new WeakMap<object, Set<readonly StoredDocument[]>>();

function firstSent(ledger: object, joined: readonly StoredDocument[]): boolean {
  let sent = SENT.get(ledger);
  if (!sent) SENT.set(ledger, (sent = new Set()));
  if (sent.has(joined)) return false;
  sent.add(joined);
  return true;
}
