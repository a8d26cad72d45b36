/**
 * The query layer of the embedded server: BSON-correct filter, projection, sort, update and
 * aggregation. Pure functions over documents; see README.md for which parts are mingo and which are ours.
 */
export { compareValues } from '../../bson/compare-values';
export type { ValueComparator } from '../../bson/compare-values';
export { Collation, parseCollation, valueComparator } from './collation';
export type { QueryScope } from './query-scope';
export { distinctValues } from './collated-groups';
export { containsString } from './bson-kind';
export { evaluateExpression, evaluateLetVariables } from './mingo-context';
export { withMongoFieldPaths } from './field-path';
export { valueKey } from './value-key';
export { packedObjectId } from '../../bson/packed-object-id';
export { cloneDocument } from './clone-document';
export { compileFilter } from './compile-filter';
export { applyProjection } from './apply-projection';
export { compileSort, documentComparator, firstSorted, lastSorted, sortDocuments } from './sort-documents';
export type { CompiledSort } from './sort-documents';
export { applyUpdate, filterIdentifier } from './apply-update';
export type { UpdateOptions } from './apply-update';
export { upsertSeed } from './upsert-seed';
export { OUTPUT_STAGES, runPipeline } from './run-pipeline';
export type { PipelineContext } from './run-pipeline';
