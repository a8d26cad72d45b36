/**
 * Why `path` cannot name a place in a stored document, or undefined when it can: MongoDB reads an empty
 * segment (`meta..x`, `meta.`, ``) as no field and a segment starting with `$` as an operator, so a
 * projection or filter on it would fail or match nothing.
 */
export function storedPathProblem(path: string): string | undefined {
  if (path === '') return 'is empty';
  if (path.split('.').some((segment) => segment === '')) return 'has an empty segment';
  const operator = path.split('.').find((segment) => segment.startsWith('$'));
  return operator === undefined ? undefined : `has a segment "${operator}" starting with "$", which MongoDB reads as an operator`;
}
