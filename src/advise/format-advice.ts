import type { AdviceReport, EffectPair, FieldAdvice, PersonalDataCopy, PredictedEffect } from './recommend/advice-types';

/**
 * The report as a person reads it: the fields to change first, in full; the ones to keep, one line
 * each. With `verbose`, a kept field whose change was considered and not given says what it was and why.
 */
export function formatAdvice(report: AdviceReport, heading: string, options: { readonly verbose?: boolean } = {}): string {
  const changes = report.fields.filter((field) => field.kind !== 'keep');
  const kept = report.fields.filter((field) => field.kind === 'keep');
  const width = Math.max(0, ...report.fields.map((field) => field.coordinate.length)) + 2;
  const lines = [heading, ''];
  for (const field of changes) lines.push(...formatChange(field), '');
  for (const field of kept) {
    const flags = field.antiPatterns.length > 0 ? `  [${field.antiPatterns.join(', ')}]` : '';
    lines.push(`${field.coordinate.padEnd(width)}keep    ${field.current}${flags}`);
    if (options.verbose && field.rejected) {
      const { rejected } = field;
      lines.push(
        `  rejected: ${rejected.kind}: ${rejected.change}`,
        `    because: ${rejected.because}`,
        ...effectLines(rejected.effect).map((line) => `    ${line}`),
        ...rejected.evidence.map((line) => `    seen:    ${line}`),
      );
    }
  }
  const rejectedCount = kept.filter((field) => field.rejected).length;
  const counts = new Map<string, number>();
  for (const field of report.fields) counts.set(field.kind, (counts.get(field.kind) ?? 0) + 1);
  const rejectedNote = rejectedCount === 0 ? '' : ` ${rejectedCount} change(s) considered and not given${options.verbose ? '' : ' (--verbose shows them, and why)'}.`;
  const kinds = counts.size === 0 ? '' : `: ${[...counts].map(([kind, count]) => `${count} ${kind}`).join(', ')}`;
  lines.push('', `${report.fields.length} relation fields${kinds}.${rejectedNote}`);
  return `${lines.join('\n')}\n`;
}

/** The effect lines of a change: the field's reads, the mutations' writes, and both together. */
function effectLines(effect: PredictedEffect): string[] {
  const { roundTripsPer1000Queries: roundTrips, documentsWrittenPer1000Mutations: writes, mutationRoundTripsPer1000Mutations: mutationRoundTrips, largestDocumentBytes: bytes, net } = effect;
  return [
    `effect:  round trips per 1,000 queries ${pair(roundTrips)}; documents written per 1,000 mutations ${pair(writes)}; largest document ${pair(bytes, ' B')}`,
    ...(mutationRoundTrips || net
      ? [`         round trips per 1,000 mutations ${pair(mutationRoundTrips)}; per 1,000 operations ${pair(net?.roundTripsPer1000Operations)}; MongoDB time per 1,000 operations ${pair(net?.commandMsPer1000Operations, ' ms')}${net?.commandCosts === 'assumed' ? ' (assumed costs)' : ''}`]
      : []),
  ];
}

function formatChange(field: FieldAdvice): string[] {
  return [
    `${field.coordinate}: ${field.kind}`,
    `  now:     ${field.current}`,
    `  advice:  ${field.change}`,
    `  why:     ${field.rule}`,
    ...effectLines(field.effect).map((line) => `  ${line}`),
    ...field.evidence.map((line, index) => `  ${index === 0 ? 'seen:   ' : '        '} ${line}`),
    ...(field.antiPatterns.length > 0 ? [`  flags:   ${field.antiPatterns.join(', ')}`] : []),
    ...(field.personalData ? [`  personal data: ${personalDataLine(field.personalData)}`] : []),
  ];
}

/** What a copy of personal data spreads, in one line (advise and migrate say it alike). */
export function personalDataLine(copy: PersonalDataCopy): string {
  const places = copy.copiedInto.map(({ collection, documents }) => `${collection}${documents === undefined ? '' : ` (${documents.toLocaleString('en')} documents)`}`);
  const into = places.length > 1 ? `${places.slice(0, -1).join(', ')} and ${places[places.length - 1]}` : places[0];
  return `copies ${copy.fields.join(', ')} into ${into}: ${places.length > 1 ? 'more places' : 'one more place'} an erasure or an access request must reach, and readers of ${places.length > 1 ? 'them' : 'it'} see them`;
}

function pair(effect: EffectPair | undefined, unit = ''): string {
  if (!effect) return 'n/a';
  const number = (value: number) => `${value.toLocaleString('en')}${unit}`;
  return effect.before === effect.after ? `${number(effect.before)} (unchanged)` : `${number(effect.before)} → ${number(effect.after)}`;
}
