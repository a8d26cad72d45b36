/** Whether MongoDB takes `name` as a collection's: 1 to 120 characters, no `$` or NUL, not `system.*`, no leading or trailing dot. */
export function isCollectionName(name: string): boolean {
  return name.length > 0 && name.length <= 120 && !/[$\0]/.test(name) && !name.startsWith('system.') && !name.startsWith('.') && !name.endsWith('.');
}
