import { PROVIDED_SCALARS } from '../gateway';
import type { DraftEntry, DraftField, DraftSchema } from './draft-schema';

/** The draft as SDL: the header, docjoin's scalars its fields use (`scalar DateTime`…), Query, then each type; guesses as `# guess:` comments. */
export function printDraft(draft: DraftSchema): string {
  const lines = draft.header.map((line) => `# ${oneLine(line)}`);
  lines.push('');
  for (const name of draft.scalars) lines.push(...PROVIDED_SCALARS.get(name)!.typeDefs.trimEnd().split('\n'), '');
  lines.push('type Query {', ...draft.query.flatMap(printEntry), '}');
  for (const type of draft.types) {
    lines.push('', ...type.guesses.map((guess) => `# guess: ${oneLine(guess)}`));
    lines.push(`type ${type.name}${type.collection === undefined ? '' : ` @collection(name: ${JSON.stringify(type.collection)})`} {`, ...type.entries.flatMap(printEntry), '}');
  }
  return `${lines.join('\n')}\n`;
}

function printEntry(entry: DraftEntry): string[] {
  if (entry.kind === 'left-out') return [`  # guess: ${oneLine(entry.guess)}`];
  return [...entry.guesses.map((guess) => `  # guess: ${oneLine(guess)}`), `  ${printField(entry)}`];
}

function printField(field: DraftField): string {
  return `${field.name}${field.args}: ${field.type}${field.directives.map((directive) => ` ${directive}`).join('')}`;
}

/** A comment ends at a line break: a key or a server message must not end it early. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
