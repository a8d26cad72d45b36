import { lstatSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import { isOutside } from './outside-folder';

/**
 * The file in each folder target that lists what `docjoin codegen` generated there: its next run
 * replaces those and removes the ones it no longer generates, and leaves every other file in the
 * folder alone (a hand-written module next to the output, the operations of a near-operation-file
 * preset), as graphql-codegen itself does.
 */
export const FOLDER_MANIFEST = '.docjoin-codegen';

const HEADER = '# Written by `docjoin codegen`: the files it generated in this folder. Its next run replaces them and removes those it no longer generates; it leaves every other file here alone.';

/** The manifest of each folder target (`folders`, project-relative, ending in '/'), keyed by its path: the files of `files` (by project-relative path) under it. */
export function folderManifests(files: ReadonlyMap<string, string>, folders: readonly string[]): Map<string, string> {
  return new Map(
    folders.map((folder) => {
      const listed = [...files.keys()].filter((path) => path.startsWith(folder)).map((path) => path.slice(folder.length)).sort();
      return [`${folder}${FOLDER_MANIFEST}`, [HEADER, ...listed, ''].join('\n')];
    }),
  );
}

/**
 * The project-relative files the manifest on disk in `folder` lists (none without one): what an earlier
 * run generated there, still on disk. Only a regular file inside the folder, not reached through a
 * symbolic link out of it, is one codegen wrote: a line edited to lead elsewhere names nothing.
 */
export function listedInManifest(root: string, folder: string): string[] {
  const folderPath = resolve(root, folder);
  const manifest = join(folderPath, FOLDER_MANIFEST);
  if (!isRegularFile(manifest)) return [];
  const realFolder = realpathSync.native(folderPath);
  const listed = new Set<string>();
  for (const line of readFileSync(manifest, 'utf8').split('\n').map((text) => text.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const absolute = resolve(folderPath, posix.normalize(line));
    if (!isInside(relative(folderPath, absolute)) || !isRegularFile(absolute) || !isInside(relative(realFolder, realpathSync.native(absolute)))) continue;
    listed.add(`${folder}${relative(folderPath, absolute).split(sep).join('/')}`);
  }
  return [...listed];
}

/** Removes `paths` (project-relative, under `folder`), then each folder under `folder` that removing them left empty. */
export function removeGenerated(root: string, folder: string, paths: readonly string[]): void {
  const folderPath = resolve(root, folder);
  for (const path of paths) {
    const absolute = resolve(root, path);
    rmSync(absolute, { force: true });
    for (let parent = dirname(absolute); isInside(relative(folderPath, parent)) && readdirSync(parent).length === 0; parent = dirname(parent)) rmdirSync(parent);
  }
}

/** Whether a path made by `relative(folder, path)` names something inside `folder`, not the folder itself. */
function isInside(relativePath: string): boolean {
  return relativePath !== '' && !isOutside(relativePath);
}

/** Whether `path` is a regular file itself (not a symbolic link, a folder or a device). */
function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
