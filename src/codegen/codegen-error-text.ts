import { relative } from 'node:path';

/**
 * graphql-codegen's failure as one line: each of its targets' errors once (two targets loading one
 * broken document fail alike), without what it folds into a message after the text itself (the inner
 * `AggregateError: …` said again, with its stack frames) and with its indentation collapsed. Where an
 * error names the place in a document (`at /…/operations/bad.graphql:1:32`), it is kept, relative to
 * the project's `root`. The outputs a target leaves out of its documents (`,!generated/client/`) are
 * not named among the pointers the project gave: they would make one mistake read as two.
 */
export function codegenErrorText(error: unknown, root: string): string {
  const errors: readonly unknown[] = error instanceof AggregateError && error.errors.length > 0 ? error.errors : [error];
  return [...new Set(errors.map((one) => messageText(one instanceof Error ? one.message : String(one), root)))].join('; ');
}

function messageText(message: string, root: string): string {
  const kept: string[] = [];
  for (const raw of message.split('\n')) {
    const line = raw.trim();
    const place = /^at ([^\s()]+:\d+:\d+)$/.exec(line)?.[1];
    if (place !== undefined && !place.includes('node_modules') && !place.startsWith('node:') && kept.length > 0) {
      kept.push(`(at ${relative(root, place)})`);
      continue;
    }
    if (line === '' || /^at /.test(line)) continue;
    const inner = /^\w*Error: (.*)$/.exec(line);
    // The inner error's own text again, then its stack: the rest says nothing new.
    if (inner && kept.includes(inner[1]!)) break;
    kept.push(line);
  }
  return kept.join(' ').replace(/,!\S+?(?=[,:])/g, '');
}
