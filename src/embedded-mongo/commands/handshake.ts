import os from 'node:os';
import { Long, ObjectId, Timestamp, type Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE, MAX_MESSAGE_SIZE_BYTES, MAX_WRITE_BATCH_SIZE } from '../protocol/wire-constants';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import type { CommandContext, CommandHandler, CommandTable, ServerView } from '../protocol/command-types';

export const REPLICA_SET_NAME = 'docjoin';
export const SERVER_VERSION = '7.0.0';
/** Wire version 21 is MongoDB 7.0; the driver needs ≥ 8 (4.2) and ≥ 7 for replica-set transactions. */
export const MAX_WIRE_VERSION = 21;
const LOGICAL_SESSION_TIMEOUT_MINUTES = 30;
/** MongoDB's default electionId format for term 1. */
const ELECTION_ID = new ObjectId('7fffffff0000000000000001');

/**
 * Connection-level commands: the handshake (hello/isMaster), ping and the informational commands
 * drivers and shells send. The server presents itself as the primary of a one-member replica set,
 * which is what makes the driver allow sessions, retryable writes and transactions; `standalone`, as a
 * `mongod` started without `--replSet`, which allows sessions alone.
 */
export function handshakeCommands(server: ServerView, standalone = false): CommandTable {
  // topologyVersion never changes: this "replica set" never elects or reconfigures.
  const topologyVersion = { processId: new ObjectId(), counter: Long.fromNumber(0) };

  const helloReply = (command: Document, context: CommandContext, legacy: boolean): Document => {
    const address = server.address;
    const now = new Date();
    const opTime = { ts: new Timestamp({ t: Math.floor(now.getTime() / 1000), i: 1 }), t: Long.fromNumber(1) };
    const lastWriteDate = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const replicaSet = standalone
      ? {}
      : {
          hosts: [address],
          setName: REPLICA_SET_NAME,
          setVersion: 1,
          primary: address,
          me: address,
          electionId: ELECTION_ID,
          lastWrite: { opTime, lastWriteDate, majorityOpTime: opTime, majorityWriteDate: lastWriteDate },
        };
    return {
      topologyVersion,
      ...replicaSet,
      ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
      secondary: false,
      ...(legacy && command.helloOk === true ? { helloOk: true } : {}),
      maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
      maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
      maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
      localTime: now,
      logicalSessionTimeoutMinutes: LOGICAL_SESSION_TIMEOUT_MINUTES,
      connectionId: context.connectionId,
      minWireVersion: 0,
      maxWireVersion: MAX_WIRE_VERSION,
      readOnly: false,
    };
  };
  const legacyHello: CommandHandler = (command, context) => helloReply(command, context, true);
  const buildInfo: CommandHandler = () => buildInfoReply();
  // A URI with a user and password makes the driver authenticate first; say what to change.
  const noAuthentication: CommandHandler = () => {
    throw new CommandError(
      ErrorCodes.AuthenticationFailed,
      'AuthenticationFailed',
      `docjoin's embedded MongoDB has no authentication: remove the user name and password from the URI (mongodb://${server.address}/)`,
    );
  };

  return {
    hello: (command, context) => helloReply(command, context, false),
    isMaster: legacyHello,
    ismaster: legacyHello,
    ping: () => ({}),
    buildInfo,
    buildinfo: buildInfo,
    getParameter: (command) => getParameterReply(command),
    hostInfo: () => hostInfoReply(),
    whatsmyuri: (_command, context) => ({ you: server.clientAddress(context.connectionId) ?? 'unknown' }),
    getCmdLineOpts: () => ({ argv: ['embedded-mongo'], parsed: {} }),
    connectionStatus: (command) => ({
      authInfo: {
        authenticatedUsers: [],
        authenticatedUserRoles: [],
        ...(command.showPrivileges === true ? { authenticatedUserPrivileges: [] } : {}),
      },
    }),
    getLog: (command) => getLogReply(command),
    serverStatus: () => serverStatusReply(server),
    saslStart: noAuthentication,
    saslContinue: noAuthentication,
    authenticate: noAuthentication,
  };
}

function buildInfoReply(): Document {
  return {
    version: SERVER_VERSION,
    gitVersion: 'docjoin-embedded',
    modules: [],
    allocator: 'system',
    javascriptEngine: 'none',
    sysInfo: 'deprecated',
    versionArray: [7, 0, 0, 0],
    openssl: { running: 'disabled', compiled: 'disabled' },
    buildEnvironment: {},
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['embedded'],
  };
}

const PARAMETERS: Readonly<Record<string, () => unknown>> = {
  featureCompatibilityVersion: () => ({ version: '7.0' }),
  authenticationMechanisms: () => [],
  transactionLifetimeLimitSeconds: () => 60,
  maxTransactionLockRequestTimeoutMillis: () => 5,
  logLevel: () => 0,
  quiet: () => false,
  enableTestCommands: () => false,
};

/** `{ getParameter: '*' }` (or `allParameters: true`) returns all; otherwise the named ones. */
function getParameterReply(command: Document): Document {
  const selector = command.getParameter;
  const all = selector === '*' || (typeof selector === 'object' && selector !== null && selector.allParameters === true);
  const reply: Document = {};
  for (const [name, value] of Object.entries(PARAMETERS)) {
    if (all || Object.prototype.hasOwnProperty.call(command, name)) reply[name] = value();
  }
  if (Object.keys(reply).length === 0) throw new CommandError(72, 'InvalidOptions', 'no option found to get');
  return reply;
}

function hostInfoReply(): Document {
  return {
    system: {
      currentTime: new Date(),
      hostname: os.hostname(),
      cpuAddrSize: 64,
      memSizeMB: Long.fromNumber(Math.round(os.totalmem() / (1024 * 1024))),
      numCores: os.cpus().length,
      cpuArch: os.arch(),
      numaEnabled: false,
    },
    os: { type: os.type(), name: os.platform(), version: os.release() },
    extra: {},
  };
}

const LOG_NAMES = ['global', 'startupWarnings'];

function getLogReply(command: Document): Document {
  const name = command.getLog;
  if (name === '*') return { names: LOG_NAMES };
  if (typeof name === 'string' && LOG_NAMES.includes(name)) return { totalLinesWritten: 0, log: [] };
  throw new CommandError(ErrorCodes.BadValue, 'BadValue', `No log named '${String(name)}'`);
}

function serverStatusReply(server: ServerView): Document {
  const uptimeMillis = Date.now() - server.startedAt.getTime();
  return {
    host: os.hostname(),
    version: SERVER_VERSION,
    process: 'mongod',
    pid: Long.fromNumber(process.pid),
    uptime: Math.floor(uptimeMillis / 1000),
    uptimeMillis: Long.fromNumber(uptimeMillis),
    uptimeEstimate: Long.fromNumber(Math.floor(uptimeMillis / 1000)),
    localTime: new Date(),
    connections: { current: server.connectionCount, available: 1_000_000, totalCreated: server.totalConnections },
  };
}
