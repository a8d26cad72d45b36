import type { AggregateField, RelationField, StorageMap } from '../../gateway';
import { EXACT_SUMS, sumType } from '../../gateway';
import type { AdviceThresholds } from './advice-thresholds';
import type { Candidate } from './price-change';
import { RULES } from './rules-of-thumb';
import { count, round, type WorkloadView } from './workload-view';

/** What an `@aggregate` read records when it asks for nothing but an unfiltered count (aggregate-request.ts `reads`). */
const BARE_COUNT = 'count';

/**
 * A `@counter` for a list whose `@aggregate` fields were read, by query, for a bare count in at least
 * `switchDefaultShare` of their reads: the parent would hold the count, and those reads would send
 * nothing. Undefined when the list has no aggregate, already has a counter, or the reads asked for more.
 * Its writes (a `$inc` of the parent per child added or removed) are priced afterwards, with the
 * schema the change leaves (price-change.ts).
 */
export function counterAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, thresholds: AdviceThresholds): (Candidate & { readonly counterField: string }) | undefined {
  const aggregates = aggregatesOfList(field, storageMap);
  if (aggregates.length === 0 || aggregates.some((aggregate) => aggregate.counter !== undefined)) return undefined;
  const { reads, answered: bare, saved, before } = tallyReads(aggregates, workload, () => (fields) => fields.length === 1 && fields[0] === BARE_COUNT);
  if (bare === 0 || bare < thresholds.switchDefaultShare * reads) return undefined;
  const counterField = `${field.typeName}.${counterFieldName(field, storageMap)}`;
  return {
    kind: 'add-counter',
    change: `keep the number of ${field.coordinate} in each ${field.typeName} (${counterField}: Int! @counter(of: "${field.coordinate}")): a bare count is then read from the parent`,
    rule: RULES.addCounter,
    counterField,
    storage: { kind: 'add-counter', coordinate: field.coordinate, counter: counterField },
    roundTripsPer1000Queries: { before: round(before), after: round(before - (workload.perQueries(saved) ?? 0)) },
    queryRoundTrips: -saved,
    evidence: [`${count(bare)} of ${count(reads)} queries aggregating ${field.coordinate} asked only for an unfiltered count`],
  };
}

/**
 * The reads an aggregate records that the parent's figures would answer once the list has a `@total` of
 * `field`: no filter, no group, no min or max; a count only with the list's counter; a mean only with it
 * and a non-null field (`averages`: `$avg` leaves out children without a number, which the counter counts).
 */
function answeredWithTotal(fields: readonly string[], field: string, counted: boolean, averages: boolean): boolean {
  const names = new Set([`sum.${field}`, BARE_COUNT, ...(averages ? [`avg.${field}`] : [])]);
  return fields.some((name) => name.endsWith(`.${field}`)) && fields.every((name) => names.has(name)) && (counted || !fields.includes(BARE_COUNT));
}

/**
 * A `@total` of the field whose unfiltered sums (and means, with a `@counter` of the list) the list's
 * `@aggregate` fields read most (means only of a non-null field), when the reads the parents' stored
 * figures would then answer are at least `switchDefaultShare` of their reads: those reads would send nothing. Only an Int or Long
 * field, whose running total equals a fresh sum. Undefined when no read would be answered, or
 * the list already has a total of that field. Its writes (each child added, removed or changed moves
 * its parent's total) are priced afterwards (price-change.ts).
 */
export function totalAdvice(field: RelationField, storageMap: StorageMap, workload: WorkloadView, thresholds: AdviceThresholds): (Candidate & { readonly totalField: string; readonly summedField: string }) | undefined {
  const aggregates = aggregatesOfList(field, storageMap);
  const join = field.shapes.join;
  if (aggregates.length === 0 || join?.direction !== 'byReference') return undefined;
  let best: { figure: string; scalar: string; averaged: boolean; answered: number; reads: number; saved: number; before: number } | undefined;
  for (const figure of exactFigures(aggregates)) {
    const stored = storageMap.types.get(field.targetType)?.fields.get(figure.fieldName);
    const nonNull = stored?.kind === 'stored' && stored.valueType.nonNull;
    const { reads, answered, saved, before } = tallyReads(aggregates, workload, (aggregate) =>
      aggregate.totals.has(figure.fieldName) ? undefined : (fields) => answeredWithTotal(fields, figure.fieldName, aggregate.counter !== undefined, aggregate.counter !== undefined && nonNull),
    );
    const averaged = nonNull && aggregates.some((aggregate) => aggregate.counter !== undefined);
    if (answered > 0 && answered >= thresholds.switchDefaultShare * reads && (!best || answered > best.answered)) best = { figure: figure.fieldName, scalar: figure.scalar, averaged, answered, reads, saved, before };
  }
  if (!best) return undefined;
  const totalField = `${field.typeName}.${totalFieldName(field, best.figure, storageMap)}`;
  const type = sumType(best.scalar);
  return {
    kind: 'add-total',
    change: `keep the sum of ${field.targetType}.${best.figure} over ${field.coordinate} in each ${field.typeName} (${totalField}: ${type}! @total(of: "${field.coordinate}", field: "${best.figure}")): its unfiltered sums${best.averaged ? ' and means' : ''} are then read from the parent`,
    rule: RULES.addTotal,
    totalField,
    summedField: best.figure,
    storage: { kind: 'add-total', coordinate: field.coordinate, total: totalField, field: best.figure, type },
    roundTripsPer1000Queries: { before: round(best.before), after: round(best.before - (workload.perQueries(best.saved) ?? 0)) },
    queryRoundTrips: -best.saved,
    evidence: [`${count(best.answered)} of ${count(best.reads)} queries aggregating ${field.coordinate} asked only for what a total of ${best.figure} answers (its unfiltered sum or mean, the count)`],
  };
}

/**
 * The name of a total of `figure` over `field` on its parent: `<figure>Total` (`pagesTotal`), or
 * `<list><Figure>Total` (`editedPagesTotal`) when the parent declares that name already or another of
 * its lists aggregates the same field, whose total would take it.
 */
function totalFieldName(field: RelationField, figure: string, storageMap: StorageMap): string {
  const short = `${figure}Total`;
  const taken = isDeclared(field.typeName, short, storageMap);
  const shared = [...storageMap.aggregates.values()].some(
    (aggregate) => aggregate.list !== field.coordinate && aggregate.list.startsWith(`${field.typeName}.`) && aggregate.parentLink !== undefined && aggregate.figures.has(figure),
  );
  return taken || shared ? `${field.fieldName}${figure[0]!.toUpperCase()}${figure.slice(1)}Total` : short;
}

/**
 * The name of a counter of `field` on its parent: `<list>Count` (`booksCount`), or `<list>Counter` when
 * the parent declares that name already (a count it imported, say), then those with a number.
 */
function counterFieldName(field: RelationField, storageMap: StorageMap): string {
  const short = `${field.fieldName}Count`;
  if (!isDeclared(field.typeName, short, storageMap)) return short;
  for (let number = 1; ; number++) {
    const name = `${field.fieldName}Counter${number === 1 ? '' : number}`;
    if (!isDeclared(field.typeName, name, storageMap)) return name;
  }
}

/** Whether `typeName` declares a field `name`: stored, a relation or an aggregate. */
function isDeclared(typeName: string, name: string, storageMap: StorageMap): boolean {
  return Boolean(storageMap.types.get(typeName)?.fields.has(name) || storageMap.relations.has(`${typeName}.${name}`) || storageMap.aggregates.has(`${typeName}.${name}`));
}

/** The `@aggregate` fields over the reverse join (or inverse list) `field`. */
function aggregatesOfList(field: RelationField, storageMap: StorageMap): AggregateField[] {
  return [...storageMap.aggregates.values()].filter((aggregate) => aggregate.list === field.coordinate && aggregate.parentLink !== undefined);
}

/**
 * Over the recorded reads of `aggregates`: how many there were, how many a stored figure would answer
 * (`answers` of an aggregate: which recorded selections; undefined: none of that aggregate's reads
 * count), the round trips those would save (the commands they sent alone), and the aggregates' round trips per 1,000 queries before.
 */
function tallyReads(
  aggregates: readonly AggregateField[],
  workload: WorkloadView,
  answers: (aggregate: AggregateField) => ((fields: readonly string[]) => boolean) | undefined,
): { reads: number; answered: number; saved: number; before: number } {
  const tally = { reads: 0, answered: 0, saved: 0, before: 0 };
  for (const aggregate of aggregates) {
    const entry = workload.entry(aggregate.coordinate, 'join');
    const answered = answers(aggregate);
    if (!answered || !entry || entry.operations === 0) continue;
    const counted = entry.selections.filter((set) => answered(set.fields)).reduce((sum, set) => sum + set.operations, 0);
    tally.reads += entry.operations;
    tally.answered += counted;
    // A command the aggregate shared with another field (the page of the same children) is sent without it too.
    tally.saved += (entry.soleRoundTrips * counted) / entry.operations;
    tally.before += workload.roundTripsPer1000Queries(aggregate.coordinate) ?? 0;
  }
  return tally;
}

/** The Int and Long fields the aggregates of a list compute figures over, each once (EXACT_SUMS). */
function exactFigures(aggregates: readonly AggregateField[]): Array<{ fieldName: string; scalar: string }> {
  const figures = new Map<string, string>();
  for (const aggregate of aggregates) for (const figure of aggregate.figures.values()) if (EXACT_SUMS.has(figure.scalar)) figures.set(figure.fieldName, figure.scalar);
  return [...figures].map(([fieldName, scalar]) => ({ fieldName, scalar }));
}

