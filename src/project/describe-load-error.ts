import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** The longest stretch of the config's source a message quotes. */
const QUOTED_CHARACTERS = 60;

/**
 * Why `file` (an absolute path) failed to load, in one line: the error's own reason and, when the
 * error points into the file (a parser's `file:line:column`, or the first stack frame in the file for an
 * error its code threw), that line of the file, quoted. Only the line is given: parsers count columns
 * from 0 and Node's stack from 1.
 */
export function describeLoadError(error: unknown, file: string): string {
  if (!(error instanceof Error)) return String(error);
  // esbuild (under tsx) puts its reason on the second line: "Transform failed with 1 error:\n<file>:4:1: ERROR: Expected …".
  const reason = /:\d+:\d+: ERROR: (.+)$/m.exec(error.message)?.[1] ?? error.message.split('\n')[0]!.trim().replace(/^ParseError: /, '');
  const missing = missingPackage(error.message);
  // docjoin itself is not on the npm registry yet: it installs from a tarball packed from its repository (README, "Install and scaffold").
  if (missing === 'docjoin') return `${reason}; install it in the project from a tarball packed from the docjoin repository (npm pack there, then npm install path/to/docjoin-<version>.tgz)`;
  if (missing !== undefined) return `${reason}; install it in the project (npm install ${missing})`;
  const line = lineInFile(`${error.message}\n${error.stack ?? ''}`, file);
  const quoted = line === undefined ? undefined : sourceLine(file, line);
  if (line === undefined) return reason;
  return quoted ? `${reason} (line ${line}: \`${quoted}\`)` : `${reason} (line ${line})`;
}

/** The package a "Cannot find module/package 'x'" names (`@scope/name` or `name`, without a subpath); undefined for a relative file. */
function missingPackage(message: string): string | undefined {
  const specifier = /Cannot find (?:module|package) '([^']+)'/.exec(message)?.[1];
  // A package name: `name` or `@scope/name`, then a subpath; not a file, a URL, a `#` import or a path alias (`@/lib`).
  return /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?=\/|$)/i.exec(specifier ?? '')?.[0];
}

/** Whether the error says where in `file` it is (Node's own SyntaxError from `require` of an ES module does not). */
export function locatesInFile(error: unknown, file: string): boolean {
  return error instanceof Error && lineInFile(`${error.message}\n${error.stack ?? ''}`, file) !== undefined;
}

function lineInFile(text: string, file: string): number | undefined {
  const escape = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?:${escape(pathToFileURL(file).href)}|${escape(file)}):(\\d+)`).exec(text);
  return match ? Number(match[1]) : undefined;
}

function sourceLine(file: string, line: number): string | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const text = source.split(/\r?\n/)[line - 1]?.trim();
  if (!text) return undefined;
  return text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS - 1)}…` : text;
}
