import { ObjectId } from 'bson';
import { isValueOfType, type RowCondition } from '../../startup/access-rules/access-rule-types';

/** A claim that cannot be the stored value a condition compares: the condition matches no document. */
export const NO_CLAIM = Symbol('no claim');

/** What a claim is compared with: an ObjectId, or a value of the field's type (any string, number or boolean for a scalar of your own). */
export type ClaimTarget = Pick<RowCondition, 'objectId' | 'valueType'>;

/**
 * The stored value a token's claim stands for in a row condition: an ObjectId for a field stored as one
 * (the claim must be its 24-hex string), else the claim itself when it is a value of the field's type
 * (a string for a String, an integer for an Int); NO_CLAIM otherwise: it matches no stored value of the
 * field's type, and a create must not store it there.
 */
export function storedClaim(claim: unknown, target: ClaimTarget): unknown {
  if (target.objectId) return typeof claim === 'string' && /^[0-9a-fA-F]{24}$/.test(claim) ? new ObjectId(claim.toLowerCase()) : NO_CLAIM;
  if (target.valueType !== undefined) return isValueOfType(claim, target.valueType) ? claim : NO_CLAIM;
  return typeof claim === 'string' || typeof claim === 'number' || typeof claim === 'boolean' ? claim : NO_CLAIM;
}
