/** A server version's major and minor numbers (`7.0.12` → `[7, 0]`); a missing or unreadable part is 0. */
export function majorMinor(version: string): [number, number] {
  const [major = 0, minor = 0] = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  return [major, minor];
}

/** Whether a server `version` (`7.0.12`) is older than `major.minor`. */
export function versionBefore(version: string, [major, minor]: readonly [number, number]): boolean {
  const [actualMajor, actualMinor] = majorMinor(version);
  return actualMajor < major || (actualMajor === major && actualMinor < minor);
}
