import type { Db } from 'mongodb';

/** The server's version (buildInfo), e.g. `7.0.12`; undefined when it does not tell. */
export async function readServerVersion(db: Db): Promise<string | undefined> {
  try {
    const info = await db.admin().command({ buildInfo: 1 });
    return typeof info.version === 'string' ? info.version : undefined;
  } catch {
    return undefined;
  }
}
