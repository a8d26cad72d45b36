import { compareNumbers } from '../../bson/bson-number';
import { isNumeric } from './bson-kind';

/**
 * MongoDB's truth of a value (Value::coerceToBool): false, null, missing and a zero of any numeric
 * type are false; everything else is true, NaN, `""` and `[]` included.
 */
export function expressionTruth(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'number') return value !== 0;
  return isNumeric(value) ? compareNumbers(value, 0) !== 0 : true;
}
