import type { JoinShape, RelationField } from '../../gateway';

/** A relation field's storage in one line: each shape it declares, the default one first. */
export function describeStorage(field: RelationField): string {
  const { embedded, join, snapshot } = field.shapes;
  const parts: Array<[string, string]> = [];
  if (embedded) parts.push(['embedded', `embedded at ${embedded.path}${join?.limit !== undefined ? ` (the first ${join.limit})` : ''}`]);
  if (snapshot) parts.push(['snapshot', `snapshot at ${snapshot.path} of [${snapshot.fields.join(', ')}]`]);
  // A join read by default with $lookup inside its parent's command is still the join's shape.
  if (join) parts.push([field.defaultStrategy === 'lookup' ? 'lookup' : 'join', describeJoin(join, field.isList)]);
  parts.sort(([a], [b]) => Number(b === field.defaultStrategy) - Number(a === field.defaultStrategy));
  const byDefault = field.defaultStrategy === 'lookup' ? ' (read by default, by $lookup inside its parent\'s command)' : ' (read by default)';
  return parts.map(([strategy, text]) => (strategy === field.defaultStrategy ? `${text}${byDefault}` : text)).join('; ');
}

/** A single field joined by another key than `_id` (`currencyCode` → `currencies.code`) is a join by key too. */
function describeJoin(join: JoinShape, isList: boolean): string {
  return join.direction === 'byKey' || !isList
    ? `join ${join.localField} → ${join.collection}.${join.foreignField}`
    : `reverse join ${join.collection}.${join.foreignField} → ${join.localField}`;
}
