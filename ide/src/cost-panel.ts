import { createElement as h, useSyncExternalStore, type ReactElement } from 'react';
import { latestCost, subscribeToCost, type CostReport } from './cost-store';

/**
 * The cost of the last response, readable: totals, then one row per relation field with its strategy,
 * round trips, documents and snapshot hits and misses. The raw report stays in the response's
 * `extensions.cost`.
 */
export function CostPanel(): ReactElement {
  const cost = useSyncExternalStore(subscribeToCost, latestCost);
  return h(
    'section',
    { className: 'docjoin-cost', 'aria-label': 'MongoDB cost of the last response' },
    h('h2', null, 'MongoDB cost'),
    cost === undefined ? h('p', { className: 'docjoin-cost-empty' }, 'Run an operation: its round trips, documents and strategies appear here.') : h(CostTables, { cost }),
    h(
      'p',
      { className: 'docjoin-cost-hint' },
      'Headers: ',
      h('code', null, '{"x-docjoin-strategy": "Book.authors=join"}'),
      ' switches a field’s strategy; ',
      h('code', null, '{"x-docjoin-cost": "commands"}'),
      ' lists every command.',
    ),
  );
}

function CostTables({ cost }: { readonly cost: CostReport }): ReactElement {
  const totals: Array<[string, string]> = [
    ['Round trips', String(cost.roundTrips)],
    ['Estimated before execution', `${cost.estimatedRoundTrips} round trips, ${cost.estimatedDocuments} documents at most`],
    ['One query per parent would send', String(cost.naiveRoundTrips)],
    ['Documents', String(cost.documents)],
    ['Bytes', String(cost.bytes)],
    ['Time', `${cost.durationMs} ms`],
  ];
  const fields = Object.entries(cost.fields);
  return h(
    'div',
    null,
    h('dl', { className: 'docjoin-cost-totals' }, ...totals.flatMap(([name, value]) => [h('dt', { key: `${name}-t` }, name), h('dd', { key: `${name}-d`, 'data-total': name }, value)])),
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
  );
}
