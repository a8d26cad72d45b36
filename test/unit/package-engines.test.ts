import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm ci` on the oldest Node the package supports prints no EBADENGINE: every locked package accepts
 * it. (The codegen CLI's URL and GitHub loaders pull packages that want Node 22; package.json's
 * `overrides` pins the last versions of them that run on Node 20.)
 */
// semver ships with npm's tree (the lockfile locks it); typed here for the one call.
const { minVersion, satisfies } = require('semver') as { minVersion(range: string): { version: string } | null; satisfies(version: string, range: string): boolean };

const ROOT = join(__dirname, '../..');

it('every locked package accepts the oldest Node that engines allows', () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const oldest = minVersion(manifest.engines.node)!.version;
  expect(oldest).toBe('20.19.0');
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };
  const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
    return range !== undefined && !satisfies(oldest, range) ? [`${path}@${entry.version} wants node ${range}`] : [];
  });
  expect(refusing).toEqual([]);
});
