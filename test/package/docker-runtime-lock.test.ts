import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The image's runtime stage installs docjoin's dependencies and peers from docker/runtime's lockfile,
 * then the package's tarball on top (Dockerfile). The tarball brings no dependency of its own, so that
 * lockfile must name every dependency the package declares, and the peers the image serves with, at the
 * versions this repository's lockfile tests: the image then runs what the suite ran.
 */
const REPO = resolve(__dirname, '../..');
const RUNTIME = join(REPO, 'docker/runtime');
/** The peers the image serves with; the codegen CLI, an optional peer, is not in it. */
const IMAGE_PEERS = ['@apollo/server', 'graphql', 'mongodb'];

interface PackageJson {
  readonly dependencies?: Readonly<Record<string, string>>;
}
interface Lockfile {
  readonly packages: Readonly<Record<string, { readonly version?: string; readonly dependencies?: Readonly<Record<string, string>> }>>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const rootPackage = readJson<PackageJson>(join(REPO, 'package.json'));
const rootLock = readJson<Lockfile>(join(REPO, 'package-lock.json'));
const runtimePackage = readJson<PackageJson>(join(RUNTIME, 'package.json'));
const runtimeLock = readJson<Lockfile>(join(RUNTIME, 'package-lock.json'));

const HOW_TO_UPDATE =
  'set docker/runtime/package.json to these versions, then in docker/runtime: cp ../../package-lock.json . && npm install --package-lock-only --prefer-offline';

it("names every dependency and peer of the image at the repository lockfile's version", () => {
  const names = [...Object.keys(rootPackage.dependencies ?? {}), ...IMAGE_PEERS].sort();
  const expected = Object.fromEntries(names.map((name) => [name, rootLock.packages[`node_modules/${name}`]?.version]));
  expect([HOW_TO_UPDATE, runtimePackage.dependencies]).toEqual([HOW_TO_UPDATE, expected]);
});

it('locks what its package.json names, each transitive package at the version the repository locks where both have it', () => {
  expect(runtimeLock.packages['']?.dependencies).toEqual(runtimePackage.dependencies);
  const drifted = Object.entries(runtimeLock.packages)
    .filter(([path, entry]) => path !== '' && rootLock.packages[path] !== undefined && rootLock.packages[path]!.version !== entry.version)
    .map(([path, entry]) => `${path}: ${entry.version}, the repository locks ${rootLock.packages[path]!.version}`);
  expect([HOW_TO_UPDATE, drifted]).toEqual([HOW_TO_UPDATE, []]);
});
