import type { Document } from 'bson';
import { namedError } from '../../protocol/command-error';

/**
 * The fields MongoDB 7.0's IDL accepts in one statement of `update.updates` (UpdateOpEntry) and
 * `delete.deletes` (DeleteOpEntry). Both structs are strict, so anything else fails the whole
 * command before a statement runs. Notably `sort` in an update statement, which drivers send for
 * `updateOne`/`replaceOne` with a sort option: MongoDB 8.0 added it (SERVER-78140), 7.0 rejects it.
 */
const STATEMENT_FIELDS = {
  update: new Set(['q', 'u', 'c', 'arrayFilters', 'hint', 'multi', 'upsert', 'upsertSupplied', 'collation', 'sampleId', '$_allowShardKeyUpdatesWithoutFullShardKeyInQuery']),
  delete: new Set(['q', 'limit', 'hint', 'collation', 'sampleId']),
} as const;

const STATEMENT_ARRAYS = { update: 'updates', delete: 'deletes' } as const;

/** Fails with 40415 IDLUnknownField ("BSON field 'update.updates.sort' is an unknown field.") on the first unknown field. */
export function assertKnownStatementFields(command: 'update' | 'delete', statements: readonly Document[]): void {
  const known = STATEMENT_FIELDS[command];
  for (const statement of statements) {
    for (const field of Object.keys(statement)) {
      if (!known.has(field)) throw namedError('IDLUnknownField', `BSON field '${command}.${STATEMENT_ARRAYS[command]}.${field}' is an unknown field.`);
    }
  }
}
