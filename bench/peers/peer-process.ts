import { CommandCounter, type InProcessPeer, type PeerStartOptions, type RunningPeer } from './peer-implementation';
import type { OperationVariables } from './peer-operations';
import { ADVISED_LOOKUPS_VARIABLE, BASELINE_DIRECTORY_VARIABLE, isPeerName, type ConcurrentRequest, type PeerCall, type PeerMessage, type PeerName, type PeerRequest, type ProcessStats, type SequentialRequest, type SequentialResult, type ThroughputWindow } from './peer-protocol';

/**
 * One implementation in its own process: `node build/bench-peers/bench/peers/peer-process.js <name> <mongoUri> <db> monitored|plain`
 * (compiled by compilePeers, peer-children.ts), forked by the runner with an IPC channel. It starts the implementation, says
 * `ready` (with the HTTP port of a GraphQL server), then answers the runner's calls: its own CPU time,
 * RSS and (monitored) command count, and for the in-process floor, runs of its operations. Only the implementation
 * asked for is imported, so no process carries another's modules in its RSS.
 */
async function startPeer(name: PeerName, options: PeerStartOptions): Promise<RunningPeer> {
  switch (name) {
    case 'docjoin':
      return (require('./docjoin-server') as typeof import('./docjoin-server')).start(options);
    case 'docjoin-advised':
      return (require('./docjoin-server') as typeof import('./docjoin-server')).startAdvised(options, (process.env[ADVISED_LOOKUPS_VARIABLE] ?? '').split(',').filter(Boolean));
    case 'docjoin-features-off':
      return (require('./docjoin-server') as typeof import('./docjoin-server')).startWithFeaturesOff(options);
    case 'docjoin-baseline': {
      const directory = process.env[BASELINE_DIRECTORY_VARIABLE];
      if (!directory) throw new Error(`docjoin-baseline runs only with PEERS_BASELINE (${BASELINE_DIRECTORY_VARIABLE} is unset)`);
      return (require('./docjoin-server') as typeof import('./docjoin-server')).startBaseline(options, directory);
    }
    case 'dataloader':
      return (require('./dataloader-server') as typeof import('./dataloader-server')).start(options);
    case 'mongoose':
      return (require('./mongoose-server') as typeof import('./mongoose-server')).start(options);
    case 'naive':
      return (require('./naive-server') as typeof import('./naive-server')).start(options);
    case 'raw':
      return (require('./raw-driver') as typeof import('./raw-driver')).start(options);
    default: {
      const never: never = name;
      throw new Error(`unknown peer ${String(never)}`);
    }
  }
}

function send(message: PeerMessage): void {
  process.send!(message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function stats(commands: CommandCounter | undefined): ProcessStats {
  const cpu = process.cpuUsage();
  return { cpuMicros: cpu.user + cpu.system, rssBytes: process.memoryUsage.rss(), commands: commands?.count };
}

function inProcess(peer: RunningPeer, request: PeerRequest): InProcessPeer {
  if (peer.kind !== 'in-process') throw new Error(`${request.kind}: this peer answers over HTTP; the runner times it`);
  return peer;
}

/** Variables of the n-th run: the list's entries in turn (the mutation comments on a different post each time). */
function variablesOf(list: readonly OperationVariables[], index: number): OperationVariables {
  return list.length === 0 ? {} : list[index % list.length]!;
}

async function sequential(peer: InProcessPeer, request: SequentialRequest): Promise<SequentialResult> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  while (latenciesMs.length < request.maxSamples && (latenciesMs.length < request.minSamples || performance.now() - started < request.maxMs)) {
    const variables = variablesOf(request.variables, latenciesMs.length);
    const runStarted = performance.now();
    await peer.execute(request.operation, variables);
    latenciesMs.push(performance.now() - runStarted);
  }
  return { latenciesMs };
}

async function concurrent(peer: InProcessPeer, request: ConcurrentRequest): Promise<ThroughputWindow> {
  let next = 0;
  let completed = 0;
  let firstMs = 0;
  let lastMs = 0;
  let latencyMs = 0;
  const started = performance.now();
  const deadline = started + request.durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const runStarted = performance.now();
      await peer.execute(request.operation, variablesOf(request.variables, next++));
      lastMs = performance.now();
      latencyMs += lastMs - runStarted;
      if (completed++ === 0) firstMs = lastMs;
    }
  };
  await Promise.all(Array.from({ length: request.concurrency }, worker));
  return { concurrency: request.concurrency, completed, firstMs, lastMs, meanLatencyMs: completed === 0 ? 0 : latencyMs / completed, seconds: (performance.now() - started) / 1000 };
}

async function answer(peer: RunningPeer, commands: CommandCounter | undefined, request: PeerRequest): Promise<unknown> {
  switch (request.kind) {
    case 'stats':
      return stats(commands);
    case 'once':
      return inProcess(peer, request).execute(request.operation, request.variables);
    case 'sequential':
      return sequential(inProcess(peer, request), request);
    case 'concurrent':
      return concurrent(inProcess(peer, request), request);
    default: {
      const never: never = request;
      throw new Error(`unknown request ${JSON.stringify(never)}`);
    }
  }
}

async function main(): Promise<void> {
  const [name, mongoUri, dbName, monitoring] = process.argv.slice(2);
  if (name === undefined || !isPeerName(name) || mongoUri === undefined || dbName === undefined || (monitoring !== 'monitored' && monitoring !== 'plain')) {
    throw new Error('usage: peer-process.ts <peer name> <mongo uri> <db name> monitored|plain (forked by bench/peers/run-peers.ts)');
  }
  if (process.send === undefined) throw new Error('peer-process.ts needs an IPC channel: the runner forks it');
  const commands = monitoring === 'monitored' ? new CommandCounter() : undefined;
  const peer = await startPeer(name, { mongoUri, dbName, commands });
  process.on('message', (message: PeerCall) => {
    answer(peer, commands, message.request).then(
      (result) => send({ type: 'reply', id: message.id, result }),
      (error: unknown) => send({ type: 'failed', id: message.id, message: messageOf(error) }),
    );
  });
  // The runner closing the channel is the signal to stop.
  process.on('disconnect', () => {
    peer.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  send({ type: 'ready', port: peer.kind === 'http' ? peer.port : undefined });
}

main().catch((error: unknown) => {
  if (process.send) send({ type: 'failed', id: undefined, message: messageOf(error) });
  else process.stderr.write(`${messageOf(error)}\n`);
  process.exit(1);
});
