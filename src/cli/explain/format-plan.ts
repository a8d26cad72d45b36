import type { GraphQLFormattedError } from 'graphql';
import { type CommandCost, type CostLimits, type CostReport, defaultLimitOrigin, findExceededLimit, LIMIT_SETTINGS, type LimitOrigins, type FilterShape, type LookupShape } from '../../gateway';
import type { FieldPlanRow, OperationPlan } from './plan-operation';
import { targetingOf, type ShardKeys } from '../../sharding/shard-targeting';

/** What `explain --run` measured. */
export interface MeasuredRun {
  /** Where it ran, e.g. `embedded demo data, scale 1`. */
  readonly where: string;
  readonly cost: CostReport | undefined;
  readonly errors: readonly GraphQLFormattedError[];
  /** Whether execution began: false when the operation was refused before it (a role, a limit, an invalid variable). */
  readonly executed: boolean;
  /** The project's shard keys (`mongodb.shardKeys`), when it declares any: each command is shown as a cluster would route it. */
  readonly shardKeys?: ShardKeys;
  /** Under access rules, the role it ran as: each command is listed with the filter it selected by. */
  readonly role?: string;
}

const LIMIT_UNITS = { roundTrips: 'round trip', documents: 'document', depth: 'level', responseNodes: 'response object' } as const;

/**
 * The plan as the terminal shows it: a headline, the limits verdict, what the access rules make of it
 * for the viewer (`accessLines`), one row per field, then the run.
 */
export function formatPlan(plan: OperationPlan, limits: CostLimits, limitOrigins: LimitOrigins, measured?: MeasuredRun, accessLines: readonly string[] = []): string {
  const { estimate } = plan;
  const name = plan.operationName ? `${plan.operationType} ${plan.operationName}` : `${plan.operationType} (anonymous)`;
  const lines = [
    `${name}: estimated before execution ${count(estimate.roundTrips, 'round trip')}, at most ${count(estimate.documents, 'document')}, depth ${estimate.depth}`,
    limitsLine(plan, limits, limitOrigins),
    `response: up to ${count(estimate.responseNodes, 'object')}, about ${approximateBytes(estimate.responseBytes)} as JSON`,
    ...accessLines,
    '',
  ];

  const header = ['field', 'strategy', 'est. round trips', ...(measured ? ['measured'] : []), 'other strategies (whole operation)'];
  const table = plan.rows.map((row) => [
    `${'  '.repeat(row.depth)}${row.coordinate}`,
    row.kind === 'root' ? (plan.operationType === 'mutation' ? 'write + read back' : 'root find') : row.kind === 'aggregate' ? 'aggregate' : `${row.strategy}${row.overridden ? ' (--strategy)' : row.joinedForAccess ? ' (access rules)' : ''}`,
    String(row.estimatedRoundTrips),
    ...(measured ? [measuredFor(row, measured.cost)] : []),
    alternativesOf(row, estimate.roundTrips),
  ]);
  lines.push(...alignColumns([header, ...table]).map((line) => `  ${line}`));
  lines.push('', '  est. round trips: what the field itself adds to the estimate (the fields below it are their own rows).');
  if (measured) lines.push('  measured: the commands its loads took part in (extensions.cost.fields); a shared batch counts for each field.');
  lines.push(...writeLines(plan));

  if (measured) lines.push('', ...measuredLines(measured, estimate.roundTrips));
  return `${lines.join('\n')}\n`;
}

/** Per mutation field, the estimate of its write unit (included in its row and in the headline). */
function writeLines(plan: OperationPlan): string[] {
  const lines: string[] = [];
  for (const row of plan.rows) {
    if (row.kind !== 'root' || !row.writes) continue;
    const { estimate, times } = row.writes;
    const parts = [
      ...(estimate.reads > 0 ? [count(estimate.reads, 'read')] : []),
      `${count(estimate.writes.length, 'write')} (${estimate.writes.join(', ')})`,
      ...(estimate.commit ? ['commit'] : []),
    ];
    const repeated = times > 1 ? ` ×${times}` : '';
    lines.push(`  ${row.coordinate}${repeated} writes: ${count(estimate.roundTrips, 'round trip')}${times > 1 ? ' each' : ''} = ${parts.join(' + ')}, then the read back.`);
  }
  if (lines.length > 0) {
    lines.push('  Writes are estimated for one attempt, with its commit (a server without transactions sends one fewer); a transaction');
    lines.push('  retried after a conflict sends them again (extensions.cost.writes.attempts).');
  }
  return lines;
}

function limitsLine(plan: OperationPlan, limits: CostLimits, origins: LimitOrigins): string {
  const excess = findExceededLimit(plan.estimate, limits);
  if (excess) {
    const origin = origins[LIMIT_SETTINGS[excess.limit]] ?? defaultLimitOrigin(excess.limit);
    return `over a limit: ${count(excess.estimated, LIMIT_UNITS[excess.limit])} > ${excess.max.toLocaleString('en-US')} (${origin}); the server rejects it with COST_LIMIT_EXCEEDED before sending anything`;
  }
  const within = (value: number, unit: string, depth = false) => (!Number.isFinite(value) ? `no limit on ${unit}` : depth ? `${unit} ${limitValue(value)}` : `${limitValue(value)} ${unit}`);
  return `within the limits (${within(limits.maxRoundTrips, 'round trips')}, ${within(limits.maxDocuments, 'documents')}, ${within(limits.maxDepth, 'depth', true)}, ${within(limits.maxResponseNodes, 'response objects')})`;
}

function approximateBytes(bytes: number): string {
  if (bytes >= Number.MAX_SAFE_INTEGER) return 'more bytes than can be counted';
  if (bytes < 1024) return count(bytes, 'byte');
  const [value, unit] = bytes < 1024 ** 2 ? [bytes / 1024, 'KiB'] : bytes < 1024 ** 3 ? [bytes / 1024 ** 2, 'MiB'] : [bytes / 1024 ** 3, 'GiB'];
  return `${value.toLocaleString('en', { maximumFractionDigits: 1 })} ${unit}`;
}

function alternativesOf(row: FieldPlanRow, total: number): string {
  // The estimator charges nothing for a root list that cannot send a query: the resolver rejects it first.
  if (row.kind === 'root') {
    if (row.estimatedRoundTrips > 0) return '';
    return row.rejected === undefined ? 'sends nothing: first is 0, or an argument is rejected (BAD_USER_INPUT)' : `sends nothing: ${row.rejected} (BAD_USER_INPUT)`;
  }
  // An aggregate has no other strategy: say how it is read.
  if (row.kind === 'aggregate') return row.read;
  return row.alternatives.map((alternative) => `${alternative.strategy} → ${count(alternative.roundTrips, 'round trip')} (${signed(alternative.roundTrips - total)})`).join(', ');
}

function measuredFor(row: FieldPlanRow, cost: CostReport | undefined): string {
  if (row.kind === 'root' || cost === undefined) return '-';
  return String(cost.fields[row.coordinate]?.roundTrips ?? 0);
}

function measuredLines(measured: MeasuredRun, estimated: number): string[] {
  const lines: string[] = [];
  const { cost } = measured;
  if (cost) {
    // The gateway's own estimate knows what the database holds: a copy, counter or total still being backfilled is joined.
    const planned = cost.estimatedRoundTrips === estimated ? '' : `; the plan above, made before reading the database, estimated ${estimated}: a copy, counter or total still being backfilled is read by its join`;
    // Refused before it ran: by a role (nothing estimated), or by a limit on the estimate it had.
    const estimate = measured.executed
      ? `estimated ${cost.estimatedRoundTrips} as it ran${planned}`
      : `refused before it ran${cost.estimatedRoundTrips > 0 ? `, on an estimate of ${cost.estimatedRoundTrips}` : ''}`;
    lines.push(
      `measured on ${measured.where}: ${count(cost.roundTrips, 'round trip')} (${estimate}), ${count(cost.documents, 'document')}, ` +
        `${count(cost.bytes, 'byte')}, ${cost.durationMs.toFixed(1)} ms; one query per parent would have sent ${cost.naiveRoundTrips}`,
    );
    if (cost.estimateExceeded) {
      const over = cost.estimateExceeded.map((measure) => (measure === 'roundTrips' ? `${cost.roundTrips} round trips against ${cost.estimatedRoundTrips}` : `${cost.documents} documents against ${cost.estimatedDocuments}`));
      lines.push(`ESTIMATE EXCEEDED: measured ${over.join(', and ')} estimated (extensions.cost.estimateExceeded; please report it with this operation)`);
    }
    if (cost.writes) {
      const fanOut = Object.entries(cost.writes.fanOut).map(([collection, modified]) => `${collection} ${modified}`).join(', ');
      lines.push(
        `writes: ${count(cost.writes.roundTrips, 'round trip')}, ${count(cost.writes.documentsModified, 'document')} modified (${fanOut}), ` +
          `${cost.writes.atomic ? 'in one transaction' : 'NOT atomic (no transactions on this server)'}`,
      );
    }
    if (measured.role !== undefined && cost.commands) lines.push('', ...commandLines(cost.commands, measured.role));
    if (measured.shardKeys && cost.commands) lines.push('', ...routingLines(cost.commands, measured.shardKeys));
  } else {
    lines.push(`measured on ${measured.where}: no cost report (the operation did not run)`);
  }
  for (const error of measured.errors) {
    const code = typeof error.extensions?.code === 'string' ? `[${error.extensions.code}] ` : '';
    lines.push(`error: ${code}${error.message}`);
  }
  return lines;
}

/** Each command the run sent, with the filter it selected by (its values hidden): where the access rules' row filters show. */
function commandLines(commands: readonly CommandCost[], role: string): string[] {
  return [
    `commands sent as role "${role}", each with the filter it selected by (values shown as "?"):`,
    ...commands.flatMap((command) => [
      `  ${command.command} on ${command.collection}${command.filter === undefined ? '' : ` ${JSON.stringify(command.filter)}`} → ${command.documents === undefined ? 'documents withheld (rows the role reads in part)' : count(command.documents, 'document')}`,
      ...lookupLines(command.lookups ?? [], '    '),
    ]),
  ];
}

/** A command's `$lookup`s under it, nested as they are, each with what it selected by in its collection. */
function lookupLines(lookups: readonly LookupShape[], indent: string): string[] {
  return lookups.flatMap((lookup) => [`${indent}$lookup on ${lookup.from} ${JSON.stringify(lookup.filter)}`, ...lookupLines(lookup.lookups ?? [], `${indent}  `)]);
}

/**
 * Each command as a sharded cluster would route it (sharding/shard-targeting.ts), its `$lookup`s under it,
 * and the count of each routing. A lookup's filter is asked once per parent document, so its routing is
 * per parent: a lookup into a sharded collection by another key than its shard key asks every shard for
 * every parent.
 */
function routingLines(commands: readonly CommandCost[], shardKeys: ShardKeys): string[] {
  const routed = commands.flatMap((command) => [
    { label: command.command, collection: command.collection, filter: command.filter, targeting: targetingOf(command, shardKeys) as string },
    ...routedLookups(command.lookups ?? [], shardKeys, '  '),
  ]);
  const rows = routed.map(({ label, collection, filter, targeting }) => [label, collection, filter === undefined ? '-' : JSON.stringify(filter), targeting]);
  const counts = new Map<string, number>();
  for (const { targeting } of routed) counts.set(targeting, (counts.get(targeting) ?? 0) + 1);
  return [
    'on a sharded cluster (mongodb.shardKeys), the commands would go to:',
    ...alignColumns([['command', 'collection', 'filter', 'routed to'], ...rows]).map((line) => `  ${line}`),
    `  ${[...counts].map(([targeting, n]) => `${n} ${targeting}`).join(', ')}`,
  ];
}

function routedLookups(lookups: readonly LookupShape[], shardKeys: ShardKeys, indent: string): { label: string; collection: string; filter: FilterShape; targeting: string }[] {
  return lookups.flatMap((lookup) => {
    const targeting = targetingOf({ command: '$lookup', collection: lookup.from, filter: lookup.filter }, shardKeys);
    return [
      { label: `${indent}$lookup`, collection: lookup.from, filter: lookup.filter, targeting: targeting === 'unsharded' ? targeting : `${targeting} per parent` },
      ...routedLookups(lookup.lookups ?? [], shardKeys, `${indent}  `),
    ];
  });
}

function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]! + 3))).join('').trimEnd());
}

function count(value: number, unit: string): string {
  return `${value.toLocaleString('en-US')} ${unit}${value === 1 ? '' : 's'}`;
}

function signed(delta: number): string {
  return delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : '±0';
}

function limitValue(value: number): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US') : 'none';
}
