/**
 * The one command-line parser behind every docjoin command (the npm scripts of this repository run the
 * same CLI): `--flag value`, `--flag=value`, switches, positionals, `-h`/`--help`. Pure, so each
 * command's parsing is unit-tested without I/O. Flags only collect strings; each command checks their
 * values.
 */
import { nearestKey } from '../project/nearest-key';

export interface FlagSpec {
  /** `--scale` */
  readonly name: string;
  /** An example value for messages (`--scale needs a value, e.g. --scale 2`); omit for a switch like `--fix`. */
  readonly example?: string;
}

export interface ArgsSpec {
  readonly flags: readonly FlagSpec[];
  /** How many positional arguments the command takes (default 0). */
  readonly positionals?: number;
}

export interface ParsedArgs {
  /** Values by flag name; the last occurrence wins. */
  readonly values: ReadonlyMap<string, string>;
  readonly switches: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** Bad input: print `message` (one line) and exit 2. */
export interface UsageError {
  readonly kind: 'usage-error';
  readonly message: string;
}

export function usageError(message: string): UsageError {
  return { kind: 'usage-error', message };
}

export function isUsageError(value: unknown): value is UsageError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'usage-error';
}

/** `--help` or `-h` anywhere wins over everything else, even a mistake elsewhere. */
export function wantsHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

export function parseFlags(argv: readonly string[], spec: ArgsSpec): ParsedArgs | UsageError {
  const byName = new Map(spec.flags.map((flag) => [flag.name, flag]));
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i]!;
    const equals = argument.indexOf('=');
    const name = argument.startsWith('--') && equals > 0 ? argument.slice(0, equals) : argument;
    const inline = name === argument ? undefined : argument.slice(equals + 1);
    const flag = byName.get(name);
    if (flag === undefined) {
      // A lone "-" or anything not shaped like an option is a positional (an operation may start with "{").
      if (argument.startsWith('-') && argument !== '-') return unknownOption(name, spec);
      if (positionals.length >= (spec.positionals ?? 0)) return unexpected(argument, spec);
      positionals.push(argument);
      continue;
    }
    if (flag.example === undefined) {
      if (inline !== undefined) return usageError(`${name} takes no value`);
      switches.add(name);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return usageError(`${name} needs a value, e.g. ${name} ${flag.example}`);
      value = next;
      i++;
    }
    values.set(name, value);
  }
  return { values, switches, positionals };
}

function unexpected(argument: string, spec: ArgsSpec): UsageError {
  const shown = argument.length > 40 ? `${argument.slice(0, 37)}...` : argument;
  const options = spec.flags.length === 0 ? 'it takes no arguments' : `options are ${spec.flags.map((flag) => flag.name).join(', ')}`;
  return usageError(`unexpected argument "${shown.replace(/\s+/g, ' ')}" (${options}; try --help)`);
}

/** An option no flag of the command has, with the nearest one when it looks like a typo of it (`--prot`: `--port`). */
function unknownOption(name: string, spec: ArgsSpec): UsageError {
  const bare = (flag: string) => flag.replace(/^-+/, '');
  const nearest = nearestKey(bare(name), spec.flags.map((flag) => bare(flag.name)));
  return usageError(`unknown option ${name}${nearest === undefined ? '' : `; did you mean --${nearest}?`} (try --help)`);
}
