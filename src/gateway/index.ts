/** The gateway's public API (src/main.ts and tests import from here). */
export { createGateway, type CreateGatewayOptions, type Gateway, type ExecutedOperation } from './create-gateway';
export { connectMongo, MongoFunnel, type MongoClient, type Db } from './mongo/mongo-funnel';
export { ApolloServerPluginDocjoinCost, COST_HEADER, type DocjoinCostOptions } from './cost/cost-plugin';
export { CostLedger, type CostReport, type FieldCost } from './cost/cost-ledger';
export { PublicErrorCode } from './errors/public-error-code';
export { StorageConfigError, DatabaseMismatchError } from './errors/internal-errors';
export { buildStorageMap } from './storage-map/build-storage-map';
export { validateAgainstDatabase } from './storage-map/validate-against-database';
export { STRATEGY_HEADER } from './context/strategy-overrides';
export type { GatewayContext } from './context/request-context';
export type { MongoKind } from './http/health';
export { estimateOperation, type CostEstimate, type EstimateInput, type WriteBound } from './estimate/estimate-operation';
export type { MutationWritePlans, WriteOperation, WritePlan } from './writes/write-plan';
export type { WriteUnitEstimate } from './writes/estimate-write-unit';
