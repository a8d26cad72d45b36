import { isAbsolute, sep } from 'node:path';

/** Whether a path made by `relative(folder, path)` leads out of `folder`. */
export function isOutside(relativePath: string): boolean {
  return relativePath === '..' || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath);
}
