import { operationNamed } from './peer-operations';
import { PEER_LABELS, type PeerName } from './peer-protocol';
import { measurementOf, type PeersRun } from './peer-results';
import { bestPeerThroughput, fixed, ratiosOf } from './peer-targets';

/**
 * bench/peers-throughput.svg: throughput per operation, one bar per implementation, one column per
 * latency. Each operation's bars share a scale set by its fastest GraphQL server (the floor's bar is
 * cut beyond it), so the bars compare implementations, not operations; docjoin's bar carries its ratio
 * to the best hand-written server, whose throughput a dashed line marks.
 */
const COLORS: Readonly<Record<PeerName, string>> = {
  docjoin: '#e8590c',
  'docjoin-advised': '#c2255c',
  'docjoin-features-off': '#ffc078',
  'docjoin-baseline': '#a9746e',
  dataloader: '#1971c2',
  mongoose: '#2f9e44',
  naive: '#adb5bd',
  raw: '#343a40',
};

const WIDTH = 1180;
const MARGIN = 20;
const LABEL_WIDTH = 330;
const COLUMN_GAP = 24;
const BAR_HEIGHT = 13;
const BAR_GAP = 3;
const GROUP_GAP = 18;
const GROUP_HEADER = 4;
const VALUE_ROOM = 170;
const TOP = 130;

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attributes}>${escape(content)}</text>`;
}

export function resultsChart(run: PeersRun): string {
  const { peers, operations } = run.settings;
  const columns = run.phases.length;
  const columnWidth = (WIDTH - 2 * MARGIN - LABEL_WIDTH - COLUMN_GAP * (columns - 1)) / Math.max(1, columns);
  const barRoom = columnWidth - VALUE_ROOM;
  const groupHeight = GROUP_HEADER + peers.length * (BAR_HEIGHT + BAR_GAP) + GROUP_GAP;
  const height = TOP + operations.length * groupHeight + 40;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    text(MARGIN, 28, `Throughput with ${run.settings.concurrency} requests in flight (requests/s, longer is better)`, 'font-size="18" font-weight="bold" fill="#212529"'),
    text(
      MARGIN,
      48,
      'Each operation\'s bars share one scale, set by its fastest GraphQL server (the raw floor\'s bar is cut where it runs past). Dashed red line: the best hand-written server.',
      'font-size="12" fill="#495057"',
    ),
  ];
  // legend: three to a row
  const legendColumn = (WIDTH - 2 * MARGIN) / 3;
  peers.forEach((peer, index) => {
    const x = MARGIN + (index % 3) * legendColumn;
    const y = 60 + Math.floor(index / 3) * 18;
    parts.push(`<rect x="${x}" y="${y}" width="12" height="12" fill="${COLORS[peer]}"/>`);
    parts.push(text(x + 17, y + 10.5, PEER_LABELS[peer], 'fill="#212529"'));
  });
  run.phases.forEach((phase, column) => {
    const x = MARGIN + LABEL_WIDTH + column * (columnWidth + COLUMN_GAP);
    parts.push(text(x, TOP - 12, `every MongoDB reply delayed ${phase.latencyMs} ms`, 'font-size="14" font-weight="bold" fill="#212529"'));
    operations.forEach((operationName, row) => {
      const top = TOP + row * groupHeight + GROUP_HEADER;
      const bottom = top + peers.length * (BAR_HEIGHT + BAR_GAP);
      const measured = peers.map((peer) => measurementOf(phase, peer, operationName));
      // The GraphQL servers set the scale: the floor, often far faster, would squeeze them into a corner.
      const scale = Math.max(...measured.filter((measurement) => measurement?.peer !== 'raw').map((measurement) => measurement?.throughput ?? 0));
      if (!(scale > 0)) return;
      const lengthOf = (value: number): number => Math.max(1, Math.min(1, value / scale) * barRoom);
      parts.push(`<line x1="${x}" y1="${top - 2}" x2="${x}" y2="${bottom}" stroke="#ced4da"/>`);
      const bestPeer = bestPeerThroughput(phase, operationName);
      if (bestPeer) {
        // Where docjoin's bar must reach to match the best hand-written server (drawn first: bars and labels go over it).
        const markX = x + lengthOf(bestPeer.throughput);
        parts.push(`<line x1="${markX.toFixed(1)}" y1="${top - 3}" x2="${markX.toFixed(1)}" y2="${bottom}" stroke="#c92a2a" stroke-width="1" stroke-dasharray="3,2"/>`);
      }
      measured.forEach((measurement, index) => {
        if (measurement === undefined) return;
        const y = top + index * (BAR_HEIGHT + BAR_GAP);
        const length = lengthOf(measurement.throughput);
        parts.push(`<rect x="${x}" y="${y}" width="${length.toFixed(1)}" height="${BAR_HEIGHT}" fill="${COLORS[measurement.peer]}"/>`);
        const offScale = measurement.throughput > scale * 1.0001;
        if (offScale) {
          // A break mark: the bar goes on beyond the scale.
          const breakX = x + length - 14;
          parts.push(`<path d="M${breakX} ${y + BAR_HEIGHT + 1} l4 ${-(BAR_HEIGHT + 2)} M${breakX + 5} ${y + BAR_HEIGHT + 1} l4 ${-(BAR_HEIGHT + 2)}" stroke="#ffffff" stroke-width="2"/>`);
        }
        const versus = measurement.peer === 'docjoin' ? ratiosOf(phase, measurement).throughputVsBestPeer : undefined;
        const label = `${fixed(measurement.throughput)}/s${versus === undefined ? '' : ` · ${versus.toFixed(2)}× best peer`}${offScale ? ' (off scale)' : ''}`;
        const style = measurement.peer === 'docjoin' ? 'font-weight="bold" fill="#c92a2a"' : 'fill="#343a40"';
        parts.push(text(x + length + 5, y + BAR_HEIGHT - 2.5, label, `${style} stroke="#ffffff" stroke-width="3" paint-order="stroke"`));
      });
    });
  });
  operations.forEach((operationName, row) => {
    const operation = operationNamed(operationName);
    const top = TOP + row * groupHeight + GROUP_HEADER;
    const [what, ...rest] = operation.summary.split(' → ');
    parts.push(text(MARGIN, top + 12, what!, 'font-size="14" font-weight="bold" fill="#212529"'));
    if (rest.length > 0) parts.push(text(MARGIN, top + 30, `→ ${rest.join(' → ')}`, 'fill="#495057"'));
    if (row > 0) parts.push(`<line x1="${MARGIN}" y1="${top - GROUP_GAP / 2 - GROUP_HEADER}" x2="${WIDTH - MARGIN}" y2="${top - GROUP_GAP / 2 - GROUP_HEADER}" stroke="#e9ecef"/>`);
  });
  parts.push(
    text(
      MARGIN,
      height - 14,
      `npm run bench -- peers, ${run.startedAt.slice(0, 10)}, node ${run.node}, ${run.cpu}. Numbers and the targets: bench/RESULTS.md.`,
      'font-size="11" fill="#868e96"',
    ),
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
