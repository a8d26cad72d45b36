/**
 * docjoin's public API. Everything a project needs is exported here; `docjoin/embedded-mongo` adds the
 * embedded MongoDB-compatible server (for tests and machines without MongoDB).
 */

// Serving: standalone, or mounted in an Apollo Server you run.
export { createGateway, type CreateGatewayOptions, type Gateway, type ExecutedOperation } from './gateway';
export { createDocjoin, type Docjoin, type DocjoinOptions, type RequestHeaders, type ExecutionScope } from './gateway';
export { GatewayOptionError, type GatewaySettings, type ResolvedSettings, type CorsOption } from './gateway';
export { connectMongo, type MongoClient, type Db } from './gateway';
export type { MongoKind, HealthReport } from './gateway';

// Schema: the directive definitions, reading SDL files, the public schema codegen sees.
export { directiveTypeDefs } from './gateway';
export { readSchemaFiles, withDirectiveTypeDefs } from './gateway';
export { printPublicSchema } from './codegen/public-schema';
export { buildStorageMap } from './gateway';
export type { StorageMap, RelationField, StoredField, TypeStorage, ReadStrategy } from './gateway';

// Resolvers: the per-request context, its root-field API and its write side.
export type { AfterAnswerTask, GatewayContext } from './gateway';
export type { DocumentsApi, FindManyOptions, FindConnectionOptions, RootFilter, FieldCondition, FilterValue } from './gateway';
export type { ConnectionValue } from './gateway';
export type { RequestWrites, WriteOptions } from './gateway';
export type { WriteUnit, SourceSelector } from './gateway';
export type { MutationWritePlans, WritePlan, WriteOperation } from './gateway';

// Errors: public codes for clients, startup errors for operators.
export { PublicErrorCode, badUserInput, forbidden, unauthenticated, AuthOptionError, ROLE_HEADER, type AuthOptions, type AuthenticationRequest, type JwtOptions, type Viewer, type AccessRules } from './gateway';
export { notFound } from './gateway';
export { isDuplicateKeyError } from './gateway';
export { objectIdArgument } from './gateway';
export { DateTimeScalar, DecimalScalar, LongScalar } from './gateway';
export { StorageConfigError, DatabaseMismatchError } from './gateway';
export { CannotListenError, PortInUseError } from './gateway';
export { guardDroppedFieldErrors, isDroppedFieldError } from './gateway';
export { documentNestingError, MAX_DOCUMENT_NESTING, variablesNestingError } from './gateway';

// Cost: the plugin, the report, the headers, the estimate.
export { ApolloServerPluginDocjoinCost, COST_HEADER, type DocjoinCostOptions } from './gateway';
export type { CostReport, FieldCost } from './gateway';
export { DEFAULT_COST_LIMITS, type CostLimits } from './gateway';
export { STRATEGY_HEADER } from './gateway';
export { estimateRequest, type EstimatedRequest, type CostEstimate } from './gateway';
export { describeEstimateViolation, type EstimateViolation, type EstimateViolationRecorder } from './gateway';

// Workload capture: the plugin and recorder behind the `workload` option, and the reader of what it wrote.
export { ApolloServerPluginDocjoinWorkload, type DocjoinWorkloadOptions } from './gateway';
export { WorkloadRecorder, MAX_MISSING_SETS } from './gateway';
export type { WorkloadCapture, WorkloadSink } from './gateway';
export { readWorkload, sumWorkload, type WorkloadSource } from './gateway';
export { WorkloadFormatError } from './gateway';
export type {
  WorkloadOption,
  WorkloadFileOption,
  WorkloadCollectionOption,
  WorkloadWindow,
  WorkloadSummary,
  OperationCounts,
  OperationTotals,
  FieldWorkload,
  MissingFields,
  MissCounts,
  MutationWorkload,
  CollectionFanOut,
} from './gateway';

// Keeping copies true.
export { reconcile } from './reconcile/reconcile';
export type { ReconcileOptions, ReconcileReport } from './reconcile/reconcile-types';
export { buildWriteModelFromSdl as buildWriteModel } from './gateway';

// Projects: docjoin.config.*.
export { defineConfig, type DocjoinProjectConfig, type SeedOptions } from './project/project-config';
export { loadProject, ProjectConfigError, type Project } from './project/load-project';
