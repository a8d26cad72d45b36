import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import 'graphiql/style.css';
import './ide.css';
import { CostPanel } from './cost-panel';
import { publishLastResponse } from './cost-store';
import { readLastResponse, unanswered } from './last-response';

/**
 * docjoin's offline IDE: GraphiQL, bundled from npm at build time (build-ide.ts) and served by the
 * gateway at /ide, with a panel for each response's `extensions.cost`. Nothing is loaded from elsewhere.
 */

/** Set by the page docjoin serves (src/gateway/http/ide.ts). */
interface IdeConfig {
  readonly endpoint: string;
  readonly assets: string;
  readonly defaultQuery: string;
  /** An `x-docjoin-strategy` value for the served schema; absent when no field has a choice. */
  readonly strategyExample?: string;
}
const config = (globalThis as unknown as { docjoinIde: IdeConfig }).docjoinIde;

const WORKERS: Readonly<Record<string, string>> = { json: 'json.worker.js', graphql: 'graphql.worker.js' };
(globalThis as unknown as { MonacoEnvironment: unknown }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    return new Worker(`${config.assets}/${WORKERS[label] ?? 'editor.worker.js'}`);
  },
};

const http = createGraphiQLFetcher({ url: new URL(config.endpoint, location.href).toString() });
/**
 * Publishes every response to the cost panel, those without a cost and failures too, so that no earlier
 * numbers stay on screen; GraphiQL's own schema request is not the user's operation.
 */
const fetcher: Fetcher = async (params, options) => {
  if (params.operationName === 'IntrospectionQuery') return http(params, options);
  let result: Awaited<ReturnType<Fetcher>>;
  try {
    result = await http(params, options);
  } catch (error) {
    publishLastResponse(unanswered(error));
    throw error;
  }
  // The toolkit hands over a plain result, or an async iterable of them (multipart responses).
  if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) return published(result as AsyncIterable<unknown>);
  publishLastResponse(readLastResponse(result));
  return result;
};

async function* published(results: AsyncIterable<unknown>): AsyncGenerator<never> {
  for await (const result of results) {
    publishLastResponse(readLastResponse(result));
    yield result as never;
  }
}

// `/ide?query=…&variables=…&headers=…` opens with those (a link can carry an operation).
const params = new URLSearchParams(location.search);
const fromUrl = (name: string): string | undefined => params.get(name) ?? undefined;

const costPlugin = {
  title: 'MongoDB cost',
  icon: () => h('span', { className: 'docjoin-cost-icon', 'aria-hidden': true }, '⛁'),
  content: () => h(CostPanel, { strategyExample: config.strategyExample }),
};

createRoot(document.getElementById('graphiql')!).render(
  h(GraphiQL, {
    fetcher,
    plugins: [costPlugin],
    visiblePlugin: costPlugin,
    defaultQuery: config.defaultQuery,
    defaultHeaders: JSON.stringify({ 'x-docjoin-cost': 'summary' }, null, 2),
    initialQuery: fromUrl('query'),
    initialVariables: fromUrl('variables'),
    initialHeaders: fromUrl('headers'),
    defaultEditorToolsVisibility: 'headers',
    isHeadersEditorEnabled: true,
  }),
);
