import { readFile } from 'node:fs/promises';
import { getOperationAST, getVariableValues, GraphQLError, parse, print, validate, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { ConfigError, gatewaySettingsOf, loadConfig, redactSecrets, type DocjoinConfig } from '../../config/config';
import { parseStrategyOverrides, STRATEGY_HEADER, type StrategyOverrides, buildOperationPlan, printOperationPlan, buildGatewaySchema, type WriteUnitEstimate, buildWriteEstimates, StorageConfigError, type RelationField, explainedViewer, explainViewer, type ViewerExplanation, resolveSettings, GatewayOptionError, anonymousRoleOf, unservedOperation } from '../../gateway';
import { ProjectConfigError, type Project } from '../../project/load-project';
import { loadProjectTarget } from '../../command-line/project-flags';
import { createProgressPrinter } from '../seed/progress-printer';
import { startFailureOf } from '../../server/start-failure';
import { startServer } from '../../server/start-server';
import { answerWithoutRunning } from '../../command-line/answer-without-running';
import type { CliEnv, CliIo } from '../../command-line/cli-io';
import { EXPLAIN_USAGE, parseExplainArgs, type ExplainCommand } from './explain-args';
import { formatPlan, type MeasuredRun } from './format-plan';
import { planOperation } from './plan-operation';
import { accessVerdict } from './access-verdict';
import { withSiblingFragments } from './sibling-fragments';
import { shardKeysProblem } from '../../sharding/check-shard-keys';
import { configurationErrorText } from '../../command-line/configuration-error-text';

type Explain = Extract<ExplainCommand, { kind: 'explain' }>;

/** `docjoin explain …`; returns the exit code (0 done, 1 the run failed, 2 bad arguments or operation). */
export async function runExplainCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const command = parseExplainArgs(argv);
  if (command.kind !== 'explain') return answerWithoutRunning('explain', command, EXPLAIN_USAGE, io);
  return explain(command, env, io);
}

/** A mistake in what the user gave: one line on stderr, exit 2. */
class BadInput extends Error {}

async function explain(command: Explain, env: CliEnv, io: CliIo): Promise<number> {
  let prepared: Prepared;
  let config: DocjoinConfig;
  let project: Project;
  let viewer: ViewerExplanation | undefined;
  try {
    project = await loadProjectTarget(command.project);
    config = loadConfig(env, { mongoUri: command.mongoUri, db: command.db, seedScale: command.seedScale }, project.config);
    prepared = await prepare(command, project);
    const shardKeys = shardKeysProblem(project.shardKeys, prepared.gateway.storageMap);
    if (shardKeys) throw new BadInput(shardKeys);
    if (command.role !== undefined) viewer = viewerOf(command, command.role, prepared, project, resolveSettings(gatewaySettingsOf(config), env.NODE_ENV).introspection);
  } catch (error) {
    if (error instanceof BadInput || error instanceof ConfigError || error instanceof ProjectConfigError || error instanceof StorageConfigError || error instanceof GatewayOptionError) {
      io.err.write(`explain: ${configurationErrorText(error)}\n`);
      return 2;
    }
    throw error;
  }
  const operationPlan = buildOperationPlan(prepared.gateway.schema, prepared.document, prepared.operation, prepared.variables, prepared.gateway.ownership);
  // The viewer's role reads some copies by join whatever is asked, as on the server.
  const strategies = viewer ? viewer.strategies(prepared.overrides) : prepared.overrides;
  const plan = planOperation({
    ...prepared.gateway,
    plan: operationPlan,
    variableValues: prepared.variables,
    overrides: strategies,
    ...(viewer && { accessJoins: viewer.joins, readsEveryRow: viewer.readsEveryRow }),
    assumedListSize: config.assumedListSize,
    writeEstimate: (field) => prepared.writeEstimates.get(field),
  });
  if (command.plan) {
    const { storageMap } = prepared.gateway;
    const strategyFor = (field: RelationField) => strategies.get(field.coordinate) ?? field.defaultStrategy;
    const printing = { schema: prepared.gateway.schema, storageMap, variableValues: prepared.variables, strategyFor, generatedRoots: prepared.gateway.ownership.rootResolvers, figures: plan.steps, ...(viewer && { rows: viewer.rows, accessJoins: viewer.joins }) };
    io.out.write(`${printOperationPlan(operationPlan, printing)}\n`);
  }
  const access = viewer && accessVerdict(viewer, operationPlan, plan.rows, prepared.gateway.schema, prepared.gateway.storageMap);
  if (!command.run || access?.refused) {
    io.out.write(formatPlan(plan, config.limits, config.limitOrigins, undefined, access?.lines));
    return access?.refused ? 1 : 0;
  }
  let measured: MeasuredRun;
  try {
    measured = await runOperation(command, prepared, config, project, io, viewer);
  } catch (error) {
    const failure = startFailureOf(error);
    if (!failure) throw error;
    io.err.write(`docjoin: ${failure.message}\n`);
    return failure.exitCode;
  }
  io.out.write(formatPlan(plan, config.limits, config.limitOrigins, measured, access?.lines));
  return measured.errors.length > 0 ? 1 : 0;
}

interface Prepared {
  readonly gateway: ReturnType<typeof buildGatewaySchema>;
  readonly text: string;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly overrides: StrategyOverrides;
  /** Per Mutation field, its write estimate (a commit counted: the server is assumed to run transactions). */
  readonly writeEstimates: ReadonlyMap<string, WriteUnitEstimate>;
}

/** Reads, parses and validates the operation, its variables and the strategies, as the server would. */
async function prepare(command: Explain, project: Project): Promise<Prepared> {
  const source = 'text' in command.operation ? command.operation.text : await readOperationFile(command.operation.file);
  const { typeDefs } = project;
  const gateway = buildGatewaySchema({ typeDefs, resolvers: project.resolvers, writePlans: project.writePlans });
  let parsed: DocumentNode;
  try {
    parsed = parse(source);
  } catch (error) {
    throw new BadInput(oneLine(error));
  }
  const document = 'file' in command.operation ? await withSiblingFragments(parsed, command.operation.file) : parsed;
  // What --run sends: the operation plus any fragment taken from a neighbouring file.
  const text = document === parsed ? source : print(document);
  const problems = validate(gateway.schema, document);
  if (problems.length > 0) throw new BadInput(`${oneLine(problems[0])}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
  const operation = getOperationAST(document, command.operationName);
  if (!operation) {
    const names = document.definitions.flatMap((definition) => (definition.kind === 'OperationDefinition' && definition.name ? [definition.name.value] : []));
    throw new BadInput(
      command.operationName === undefined
        ? `the document holds several operations; choose one with --operation (${names.join(', ')})`
        : `no operation named "${command.operationName}" (the document has ${names.join(', ') || 'none with a name'})`,
    );
  }
  const unserved = unservedOperation(gateway.schema, operation.operation);
  if (unserved) throw new BadInput(unserved);
  const { coerced, errors } = getVariableValues(gateway.schema, operation.variableDefinitions ?? [], command.variables);
  if (errors) throw new BadInput(`--variables: ${oneLine(errors[0])}`);
  let overrides: StrategyOverrides;
  try {
    overrides = parseStrategyOverrides(command.strategy, gateway.storageMap);
  } catch (error) {
    // The header's message, naming the flag instead of the header.
    throw new BadInput(oneLine(error).replace(`${STRATEGY_HEADER}:`, '--strategy:'));
  }
  const estimates = buildWriteEstimates({ model: gateway.writeModel, mutationType: gateway.schema.getMutationType(), plans: gateway.writePlans, transaction: true });
  return { gateway, text, document, operation, variables: coerced, overrides, writeEstimates: estimates };
}

async function readOperationFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInput(`cannot read --file ${file}${code ? ` (${code})` : ''}`);
  }
}

/** Starts the gateway in-process (the embedded server filled by the project's seed, or the given MongoDB), runs the operation once, stops. */
async function runOperation(command: Explain, prepared: Prepared, config: DocjoinConfig, project: Project, io: CliIo, viewer: ViewerExplanation | undefined): Promise<MeasuredRun> {
  const progress = createProgressPrinter(io.err);
  const where = config.mongodbUri ? `${config.mongodbDb} on ${redactSecrets(config.mongodbUri)}` : `the embedded server, seed scale ${config.seedScale}`;
  // --strategy is honoured even where the server would ignore the header (NODE_ENV=production).
  const sharded = Object.keys(project.shardKeys).length > 0;
  // The commands' filters say how a sharded cluster would route them, and show the access rules' row filters.
  const listCommands = sharded || viewer !== undefined;
  const server = await startServer(
    { ...config, strategyOverrides: true, ...(listCommands && { costCommands: true }) },
    project,
    {
      listen: false,
      onSeedProgress: progress.onProgress,
      log: (message) => {
        progress.finish();
        io.err.write(`explain: ${message}\n`);
      },
    },
  );
  try {
    const result = await server.gateway.execute(
      { query: prepared.text, variables: { ...command.variables }, operationName: command.operationName },
      { strategyHeader: command.strategy, ...(listCommands && { costHeader: 'commands' }), ...(viewer && { viewer: viewer.viewer }) },
    );
    return { where, cost: result.cost, errors: result.errors ?? [], executed: result.data !== undefined, ...(sharded && { shardKeys: project.shardKeys }), ...(viewer && { role: viewer.viewer.role }) };
  } finally {
    await server.stop();
  }
}

/**
 * The viewer --role names (with --claims), under the project's access rules and introspection setting:
 * a role they name, or the anonymous one.
 */
function viewerOf(command: Explain, role: string, prepared: Prepared, project: Project, introspection: boolean | readonly string[]): ViewerExplanation {
  const { accessRules } = prepared.gateway;
  const anonymousRole = anonymousRoleOf(project.config.auth);
  if (!accessRules.enabled && introspection === true) throw new BadInput('--role: the project has no @access rule, so every viewer reads everything; leave --role out');
  const named = new Set([...accessRules.roles, ...(Array.isArray(introspection) ? introspection : []), anonymousRole]);
  if (!named.has(role)) throw new BadInput(`--role: no @access rule names role "${role}"; the roles are ${[...named].sort().join(', ')}`);
  const viewer = explainedViewer(role, command.claims, anonymousRole);
  // A run compares the claims the viewer has: none, when none were given.
  return explainViewer({ ...prepared.gateway, introspection }, viewer, command.claims !== undefined || command.run);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split('\n').find((line) => line.trim() !== '') ?? message;
  const at = error instanceof GraphQLError ? error.locations?.[0] : undefined;
  return at ? `${first} (line ${at.line}, column ${at.column})` : first;
}
