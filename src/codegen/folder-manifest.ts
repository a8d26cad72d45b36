import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
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
 * run generated there. A line that leads out of the folder (edited by hand) names nothing codegen wrote.
 */
export function listedInManifest(root: string, folder: string): string[] {
  const folderPath = resolve(root, folder);
  const manifest = resolve(folderPath, FOLDER_MANIFEST);
  if (!existsSync(manifest)) return [];
  return readFileSync(manifest, 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('#') && isInside(relative(folderPath, resolve(folderPath, line))))
    .map((path) => `${folder}${path}`);
}

/** Whether a path made by `relative(folder, path)` names something inside `folder`, not the folder itself. */
function isInside(relativePath: string): boolean {
  return relativePath !== '' && !isOutside(relativePath);
}
