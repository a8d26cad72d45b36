/**
 * docjoin's public API. Everything a project needs is exported here; `docjoin/embedded-mongo` adds the
 * embedded MongoDB-compatible server (for tests and machines without MongoDB).
 */

// Serving: standalone, or mounted in an Apollo Server you run.
export { createGateway, type CreateGatewayOptions, type Gateway, type ExecutedOperation } from './gateway/create-gateway';
export { createDocjoin, type Docjoin, type DocjoinOptions, type RequestHeaders } from './gateway/create-docjoin';
export { GatewayOptionError, type GatewaySettings, type ResolvedSettings, type CorsOption } from './gateway/gateway-options';
export { connectMongo, type MongoClient, type Db } from './gateway/mongo/mongo-funnel';
export type { MongoKind, HealthReport } from './gateway/http/health';

// Schema: the directive definitions, reading SDL files, the public schema codegen sees.
export { directiveTypeDefs } from './gateway/schema/directive-type-defs';
export { readSchemaFiles, withDirectiveTypeDefs } from './gateway/schema/schema-sources';
export { printPublicSchema } from './codegen/public-schema';
export { buildStorageMap } from './gateway/storage-map/build-storage-map';
export type { StorageMap, RelationField, StoredField, TypeStorage, ReadStrategy } from './gateway/storage-map/storage-map-types';

// Resolvers: the per-request context, its root-field API and its write side.
export type { GatewayContext } from './gateway/context/request-context';
export type { DocumentsApi, FindManyOptions, FindConnectionOptions, RootFilter, FieldCondition, FilterValue } from './gateway/context/documents-api';
export type { ConnectionValue } from './gateway/planning/connection-page';
export type { RequestWrites, WriteOptions } from './gateway/writes/request-writes';
export type { WriteUnit, SourceSelector } from './gateway/writes/write-unit';
export type { MutationWritePlans, WritePlan, WriteOperation } from './gateway/writes/write-plan';

// Errors: public codes for clients, startup errors for operators.
export { PublicErrorCode, badUserInput } from './gateway/errors/public-error-code';
export { notFound } from './gateway/writes/write-errors';
export { isDuplicateKeyError } from './gateway/mongo/funnel-writer';
export { objectIdArgument } from './gateway/documents/object-id-argument';
export { DateTimeScalar } from './gateway/scalars/date-time-scalar';
export { StorageConfigError, DatabaseMismatchError } from './gateway/errors/internal-errors';
export { PortInUseError } from './gateway/http/port-in-use-error';

// Cost: the plugin, the report, the headers, the estimate.
export { ApolloServerPluginDocjoinCost, COST_HEADER, type DocjoinCostOptions } from './gateway/cost/cost-plugin';
export type { CostReport, FieldCost } from './gateway/cost/cost-ledger';
export { DEFAULT_COST_LIMITS, type CostLimits } from './gateway/cost/cost-limits';
export { STRATEGY_HEADER } from './gateway/context/strategy-overrides';
export { estimateOperation, type CostEstimate, type EstimateInput } from './gateway/estimate/estimate-operation';
export { describeEstimateViolation, type EstimateViolation, type EstimateViolationRecorder } from './gateway/cost/estimate-check';

// Workload capture: the plugin and recorder behind the `workload` option, and the reader of what it wrote.
export { ApolloServerPluginDocjoinWorkload, type DocjoinWorkloadOptions } from './gateway/workload/workload-plugin';
export { WorkloadRecorder, MAX_MISSING_SETS } from './gateway/workload/workload-recorder';
export type { WorkloadCapture, WorkloadSink } from './gateway/workload/workload-capture';
export { readWorkload, sumWorkload, type WorkloadSource } from './gateway/workload/read-workload';
export { WorkloadFormatError } from './gateway/workload/parse-workload-window';
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
} from './gateway/workload/workload-types';

// Keeping copies true.
export { reconcile } from './reconcile/reconcile';
export type { ReconcileOptions, ReconcileReport } from './reconcile/reconcile-types';
export { buildWriteModelFromSdl as buildWriteModel } from './gateway/writes/build-write-model';

// Projects: docjoin.config.*.
export { defineConfig, type DocjoinProjectConfig, type SeedOptions } from './project/project-config';
export { loadProject, ProjectConfigError, type Project } from './project/load-project';
