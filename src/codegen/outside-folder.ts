import path, { type PlatformPath } from 'node:path';

/** Whether a path made by `relative(folder, path)` leads out of `folder` (`paths`: this platform's, or another's). */
export function isOutside(relativePath: string, paths: PlatformPath = path): boolean {
  return relativePath === '..' || relativePath.startsWith(`..${paths.sep}`) || paths.isAbsolute(relativePath);
}

/** The deepest folder holding each of `folders` (absolute paths); none ('') for folders on two Windows drives. */
export function commonFolder(folders: readonly string[], paths: PlatformPath = path): string {
  return folders.reduce((common, folder) => {
    let holder = common;
    while (holder !== '' && isOutside(paths.relative(holder, folder), paths)) holder = paths.dirname(holder) === holder ? '' : paths.dirname(holder);
    return holder;
  }, folders[0] ?? '');
}
