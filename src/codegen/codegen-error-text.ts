/**
 * graphql-codegen's failure as one line: each of its targets' errors once (two targets loading one
 * broken document fail alike), without what it folds into a message after the text itself (the inner
 * `AggregateError: …` said again, with its stack frames) and with its indentation collapsed. The
 * outputs a target leaves out of its documents (`,!generated/client/`) are not named among the pointers
 * the project gave: they would make one mistake read as two.
 */
export function codegenErrorText(error: unknown): string {
  const errors: readonly unknown[] = error instanceof AggregateError && error.errors.length > 0 ? error.errors : [error];
  return [...new Set(errors.map((one) => messageText(one instanceof Error ? one.message : String(one))))].join('; ');
}

function messageText(message: string): string {
  const kept: string[] = [];
  for (const raw of message.split('\n')) {
    const line = raw.trim();
    if (line === '' || /^at /.test(line)) continue;
    const inner = /^\w*Error: (.*)$/.exec(line);
    // The inner error's own text again, then its stack: the rest says nothing new.
    if (inner && kept.includes(inner[1]!)) break;
    kept.push(line);
  }
  return kept.join(' ').replace(/,!\S+?(?=[,:])/g, '');
}
