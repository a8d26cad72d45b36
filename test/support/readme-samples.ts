import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's README.md, which shows the samples. */
export const README = readFileSync(join(__dirname, '../../README.md'), 'utf8');

/** A fenced block of the README marked `<!-- readme-sample: NAME -->` on the line above it. */
export interface ReadmeSample {
  readonly name: string;
  /** The block's lines, without its fences. */
  readonly text: string;
  /** Where its marker starts in the README: the request it answers is shown above. */
  readonly offset: number;
}

const MARKED_BLOCK = /^<!-- readme-sample: ([a-z0-9-]+) -->\n```[a-z]*\n([\s\S]*?)\n```$/gm;
const FENCED_BLOCK = /^```([a-z]*)\n([\s\S]*?)\n```$/gm;

export function readmeSamples(readme: string = README): ReadmeSample[] {
  return [...readme.matchAll(MARKED_BLOCK)].map((match) => ({ name: match[1]!, text: match[2]!, offset: match.index }));
}

/** The text of the last fenced `language` block above `sample` whose text starts with `startingWith`. */
export function blockAbove(sample: ReadmeSample, language: string, startingWith = '', readme: string = README): string {
  const above = [...readme.slice(0, sample.offset).matchAll(FENCED_BLOCK)].filter((match) => match[1] === language && match[2]!.startsWith(startingWith));
  const block = above.at(-1);
  if (!block) throw new Error(`README sample ${sample.name}: no \`\`\`${language} block starting with "${startingWith}" above it`);
  return block[2]!;
}

/** The prose between `sample`'s marker and the fenced block above it, its line breaks as spaces. */
export function paragraphAbove(sample: ReadmeSample, readme: string = README): string {
  const before = readme.slice(0, sample.offset);
  const lastFence = before.lastIndexOf('\n```\n');
  return before.slice(lastFence === -1 ? 0 : lastFence + 5).replace(/\s+/g, ' ').trim();
}

/** The headers and body of a curl command as the README writes it (`-H '…'`, `-d '…'`, lines joined by `\`). */
export function parseCurl(command: string): { headers: Record<string, string>; body: string } {
  const line = command.replace(/\\\n\s*/g, ' ');
  const headers = Object.fromEntries(
    [...line.matchAll(/-H '([^']*)'/g)].map((match) => {
      const [name, ...value] = match[1]!.split(':');
      return [name!.trim(), value.join(':').trim()];
    }),
  );
  const body = /-d '([^']*)'/.exec(line)?.[1];
  if (body === undefined) throw new Error(`no -d '…' body in: ${line}`);
  return { headers, body };
}

/** A command line's words as sh splits the README's (bare words and single-quoted strings). */
export function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}

/** A JSON sample: a whole document, or an object's members shown without their braces (`"cost": { … }`). */
export function parseJsonSample(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  return JSON.parse(trimmed.startsWith('{') ? trimmed : `{${trimmed}}`) as Record<string, unknown>;
}

/** A line that stands for lines the README leaves out. */
const LEFT_OUT = '…';

/**
 * Compares a command's output with the README's excerpt of it: the excerpt's lines verbatim, where a
 * line `…` stands for any number of lines left out. Undefined when they agree; otherwise the excerpt's
 * first run of lines that does not appear, next to the output's lines most like it.
 */
export function excerptMismatch(excerpt: string, output: string): { shown: string; printed: string } | undefined {
  const lines = output.replace(/\n$/, '').split('\n');
  const shown = excerpt.split('\n');
  const runs: string[][] = [[]];
  for (const line of shown) {
    if (line.trim() === LEFT_OUT) runs.push([]);
    else runs.at(-1)!.push(line);
  }
  if (runs.length === 1) return shown.join('\n') === lines.join('\n') ? undefined : { shown: shown.join('\n'), printed: lines.join('\n') };
  let from = 0;
  for (const [index, run] of runs.entries()) {
    const first = index === 0;
    const last = index === runs.length - 1;
    const candidates = first ? [0] : last ? [lines.length - run.length] : range(from, lines.length - run.length);
    const at = candidates.find((start) => start >= from && run.every((line, offset) => lines[start + offset] === line));
    if (at === undefined) {
      const likeliest = candidates.filter((start) => start >= from).sort((a, b) => sameLines(run, lines, b) - sameLines(run, lines, a))[0] ?? from;
      return { shown: run.join('\n'), printed: lines.slice(likeliest, likeliest + run.length).join('\n') };
    }
    from = at + run.length;
  }
  return undefined;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}

function sameLines(run: readonly string[], lines: readonly string[], start: number): number {
  return run.filter((line, offset) => lines[start + offset] === line).length;
}
