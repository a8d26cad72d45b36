import { createElement as h, useSyncExternalStore, type ReactElement } from 'react';
import type { CommandCost, CostReport, WriteCost } from './cost-report';
import { lastResponse, subscribeToLastResponse } from './cost-store';
import type { LastResponse, Outcome, ResponseError } from './last-response';

/**
 * The cost of the last response, readable: totals, a mutation's writes, one row per relation field with
 * its strategy, round trips, documents and snapshot hits and misses, and the commands when the request
 * asked for them. A refused or failed request says so and why. The raw report stays in the response's
 * `extensions.cost`.
 */
export function CostPanel({ strategyExample }: { readonly strategyExample: string | undefined }): ReactElement {
  const response = useSyncExternalStore(subscribeToLastResponse, lastResponse);
  return h(
    'section',
    { className: 'docjoin-cost', 'aria-label': 'MongoDB cost of the last response' },
    h('h2', null, 'MongoDB cost'),
    response === undefined ? h('p', { className: 'docjoin-cost-empty' }, 'Run an operation: its round trips, documents and strategies appear here.') : h(ResponseCost, { response }),
    h(HeaderHint, { strategyExample }),
  );
}

const OUTCOME_TITLES: Readonly<Record<Exclude<Outcome, 'answered'>, string>> = { rejected: 'Rejected', failed: 'Failed', partial: 'Partial result', unanswered: 'No response' };

function ResponseCost({ response }: { readonly response: LastResponse }): ReactElement {
  const { outcome, errors, cost } = response;
  const said = outcome === 'answered' ? null : h('p', { className: 'docjoin-cost-outcome', 'data-outcome': outcome, role: 'alert' }, outcomeText(OUTCOME_TITLES[outcome], errors));
  // A rejected operation never ran: its report, when it has one, is all zeros.
  if (outcome === 'rejected') return h('div', null, said);
  return h('div', null, said, cost === undefined ? h('p', { className: 'docjoin-cost-empty' }, 'This response has no cost report.') : h(CostTables, { cost }));
}

function outcomeText(title: string, errors: readonly ResponseError[]): string {
  const [first, ...others] = errors;
  const reason = first === undefined ? '' : `: ${first.code === undefined ? '' : `${first.code}: `}${first.message}`;
  return `${title}${reason}${others.length === 0 ? '' : ` (and ${count(others.length, 'more error')})`}`;
}

function CostTables({ cost }: { readonly cost: CostReport }): ReactElement {
  const totals: Array<[key: string, name: string, value: string]> = [
    ['sent', 'Sent to MongoDB', `${count(cost.roundTrips, 'round trip')}, ${count(cost.documents, 'document')}, ${count(cost.bytes, 'byte')} in ${cost.durationMs} ms`],
    ['estimated', 'Estimated before execution', `at most ${count(cost.estimatedRoundTrips, 'round trip')}, ${count(cost.estimatedDocuments, 'document')}`],
    ['naive', 'One query per parent would send', count(cost.naiveRoundTrips, 'round trip')],
    ...(cost.writes === undefined ? [] : writeTotals(cost.writes)),
  ];
  const fields = Object.entries(cost.fields);
  return h(
    'div',
    null,
    h('dl', { className: 'docjoin-cost-totals' }, ...totals.flatMap(([key, name, value]) => [h('dt', { key: `${key}-t` }, name), h('dd', { key: `${key}-d`, 'data-total': key }, value)])),
    fields.length === 0
      ? h('p', null, 'No relation field was read.')
      : h(
          'table',
          { className: 'docjoin-cost-fields' },
          h('thead', null, h('tr', null, ...['Field', 'Strategy', 'Round trips', 'Docs', 'Snapshot hits / misses'].map((title) => h('th', { key: title }, title)))),
          h(
            'tbody',
            null,
            ...fields.map(([coordinate, field]) =>
              h(
                'tr',
                { key: coordinate, 'data-field': coordinate },
                h('td', null, coordinate),
                h('td', { 'data-column': 'strategy' }, field.strategy),
                h('td', { 'data-column': 'roundTrips' }, String(field.roundTrips)),
                h('td', null, String(field.documents)),
                h('td', { 'data-column': 'snapshot' }, field.snapshotHits === undefined && field.snapshotMisses === undefined ? '' : `${field.snapshotHits ?? 0} / ${field.snapshotMisses ?? 0}`),
              ),
            ),
          ),
        ),
    cost.commands === undefined ? null : h(CommandsTable, { commands: cost.commands }),
  );
}

function writeTotals(writes: WriteCost): Array<[string, string, string]> {
  const transaction = writes.atomic ? 'in one transaction' : 'not all in one transaction';
  const fanOut = Object.entries(writes.fanOut).map(([collection, documents]) => `${collection}: ${count(documents, 'document')}`);
  return [
    ['writes', 'Writes', `${count(writes.roundTrips, 'round trip')}, ${count(writes.documentsModified, 'document')} modified ${transaction}, ${count(writes.attempts, 'attempt')}`],
    ['fanOut', 'Documents modified per collection', fanOut.length === 0 ? 'none' : fanOut.join(', ')],
  ];
}

function CommandsTable({ commands }: { readonly commands: readonly CommandCost[] }): ReactElement {
  return h(
    'table',
    { className: 'docjoin-cost-commands' },
    h('caption', null, count(commands.length, 'command')),
    h('thead', null, h('tr', null, ...['#', 'Collection', 'Command', 'Filter', 'Fields', 'Docs', 'Time'].map((title) => h('th', { key: title }, title)))),
    h(
      'tbody',
      null,
      ...commands.map((command, index) =>
        h(
          'tr',
          { key: index, 'data-command': index + 1 },
          ...[String(index + 1), command.collection, command.command, command.filter === undefined ? '' : JSON.stringify(command.filter), command.fields.join(', '), command.documents === undefined ? 'withheld' : String(command.documents), `${command.durationMs} ms`].map((text, column) =>
            h('td', { key: column }, text),
          ),
        ),
      ),
    ),
  );
}

function HeaderHint({ strategyExample }: { readonly strategyExample: string | undefined }): ReactElement {
  return h(
    'p',
    { className: 'docjoin-cost-hint' },
    'Headers: ',
    ...(strategyExample === undefined ? [] : [h('code', { key: 'strategy' }, `{"x-docjoin-strategy": ${JSON.stringify(strategyExample)}}`), ' switches a field’s strategy; ']),
    h('code', { key: 'cost' }, '{"x-docjoin-cost": "commands"}'),
    ' lists every command.',
  );
}

/** `1 round trip`, `2 round trips`. */
function count(amount: number, unit: string): string {
  return `${amount.toLocaleString('en')} ${amount === 1 ? unit : `${unit}s`}`;
}
