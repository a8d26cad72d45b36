import { StorageConfigError } from '../gateway';

/**
 * A configuration error as a command prints it after its name: one line, or, when the schema check
 * found several problems, a heading and one line each (as `docjoin serve` prints them) rather than all
 * run together on one line.
 */
export function configurationErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const several = error instanceof StorageConfigError && error.problems.length + error.databaseProblems.length > 1;
  return several ? message : message.replace(/\n\s*/g, ' ');
}
