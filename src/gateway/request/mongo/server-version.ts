import type { Db } from 'mongodb';
import { majorMinor, versionBefore } from '../../documents/version-order';

/**
 * The version whose features the server runs (buildInfo), e.g. `7.0.12`; undefined when it does not tell.
 * A server whose featureCompatibilityVersion is older than its binary (mid-upgrade) refuses the newer
 * features: that version is given then, saying so.
 */
export async function readServerVersion(db: Db): Promise<string | undefined> {
  let version: unknown;
  try {
    version = (await db.admin().command({ buildInfo: 1 })).version;
  } catch {
    return undefined;
  }
  if (typeof version !== 'string') return undefined;
  return effectiveServerVersion(version, await readFeatureCompatibilityVersion(db));
}

/** The binary's `version`, or its featureCompatibilityVersion when that is older. */
export function effectiveServerVersion(version: string, featureCompatibilityVersion: string | undefined): string {
  if (featureCompatibilityVersion === undefined || !versionBefore(featureCompatibilityVersion, majorMinor(version))) return version;
  return `${featureCompatibilityVersion} (the featureCompatibilityVersion of a ${version} server)`;
}

/** undefined where the server does not tell it (mongos, or a user without the privilege). */
async function readFeatureCompatibilityVersion(db: Db): Promise<string | undefined> {
  try {
    const reply = await db.admin().command({ getParameter: 1, featureCompatibilityVersion: 1 });
    const version: unknown = (reply.featureCompatibilityVersion as { version?: unknown } | undefined)?.version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}
