import { readFileSync } from 'node:fs';
import type { FieldAdvice } from '../advise/recommend/advice-types';
import { COORDINATE, FIELD_NAME, type MigrationRequest } from './migrate-args';

/** An advice file that cannot be read, or holds no migration for the field; one line naming the file. */
export class AdviceFileError extends Error {
  override readonly name = 'AdviceFileError';
}

/**
 * The change `docjoin advise --json FILE` recommends for `coordinate`: widen-snapshot or add-snapshot
 * (to its `snapshotFields`), drop-snapshot, add-counter (its `counterField`, counting the list) or
 * add-total (its `totalField`, summing the list's `summedField`). Any
 * other advice changes nothing this command migrates.
 */
export function readAdvice(file: string, coordinate: string): Exclude<MigrationRequest, { kind: 'advice' }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AdviceFileError(`--advice ${file} could not be read: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const fields = (parsed as { advice?: { fields?: unknown } } | null)?.advice?.fields;
  if (!Array.isArray(fields)) throw new AdviceFileError(`--advice ${file} holds no advice.fields; write it with docjoin advise --json ${file}`);
  const advice = (fields as FieldAdvice[]).find((candidate) => candidate?.coordinate === coordinate);
  if (!advice) throw new AdviceFileError(`--advice ${file} has no advice for ${coordinate}`);
  switch (advice.kind) {
    case 'widen-snapshot':
    case 'add-snapshot': {
      if (!Array.isArray(advice.snapshotFields) || !advice.snapshotFields.every((name) => typeof name === 'string' && FIELD_NAME.test(name))) throw new AdviceFileError(`--advice ${file}: the ${advice.kind} advice for ${coordinate} has no snapshotFields (field names)`);
      return advice.kind === 'widen-snapshot' ? { kind: 'widen', coordinate, fields: advice.snapshotFields } : { kind: 'add-snapshot', coordinate, fields: advice.snapshotFields, path: undefined };
    }
    case 'drop-snapshot':
      return { kind: 'drop-snapshot', coordinate };
    case 'add-counter':
      if (typeof advice.counterField !== 'string' || !COORDINATE.test(advice.counterField)) throw new AdviceFileError(`--advice ${file}: the add-counter advice for ${coordinate} has no counterField (Type.field)`);
      return { kind: 'add-counter', coordinate: advice.counterField, of: coordinate };
    case 'add-total':
      if (typeof advice.totalField !== 'string' || !COORDINATE.test(advice.totalField) || typeof advice.summedField !== 'string' || !FIELD_NAME.test(advice.summedField)) throw new AdviceFileError(`--advice ${file}: the add-total advice for ${coordinate} has no totalField (Type.field) or summedField (a field name)`);
      return { kind: 'add-total', coordinate: advice.totalField, of: coordinate, sum: advice.summedField };
    default: {
      const rejected = advice.rejected ? `; advise considered ${advice.rejected.kind} and did not give it: ${advice.rejected.because}` : '';
      throw new AdviceFileError(`--advice ${file}: the advice for ${coordinate} is ${advice.kind} (${advice.change})${rejected}; migrate applies widen-snapshot, add-snapshot, drop-snapshot, add-counter and add-total`);
    }
  }
}
