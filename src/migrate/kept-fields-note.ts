import type { DroppedSnapshot, KeptFields } from './drop-snapshot-copies';

/**
 * The line telling the operator which fields `--drop-snapshot` left in the copies, and the `$unset`
 * that would remove them: `authors.role` where the path holds one copy, `authors.$[].role` (every
 * element) where it holds an array of them.
 */
export function keptFieldsNote(dropped: DroppedSnapshot, kept: KeptFields, dryRun: boolean): string {
  const one = kept.names.length === 1 && !kept.more;
  const listed = `${kept.names.join(', ')}${kept.more ? `, and more (only the first ${kept.names.length} names found are listed)` : ''}`;
  const paths = (infix: string) => kept.names.map((name) => `"${dropped.path}${infix}.${name}"`).join(', ');
  const unsets = [
    ...(kept.inObjects ? [`${paths('')}${kept.inArrays ? ` where "${dropped.path}" holds one copy` : ''}`] : []),
    ...(kept.inArrays ? [`${paths('.$[]')}${kept.inObjects ? ` where it holds an array of them` : ''}`] : []),
  ];
  return `${dryRun ? 'would keep' : 'kept'} in the copies, as ${dropped.targetType} declares no such field${one ? '' : 's'}: ${listed}. If an older schema copied ${one ? 'it' : 'them'} (personal data, perhaps), $unset ${unsets.join(', and ')} by hand`;
}
