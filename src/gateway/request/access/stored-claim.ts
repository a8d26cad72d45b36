import { ObjectId } from 'bson';

/** A claim that cannot be the stored value a condition compares: the condition matches no document. */
export const NO_CLAIM = Symbol('no claim');

/**
 * The stored value a token's claim stands for in a row condition: an ObjectId for a field stored as one
 * (the claim must be its 24-hex string), else the claim's string, number or boolean; NO_CLAIM otherwise.
 */
export function storedClaim(claim: unknown, objectId: boolean): unknown {
  if (objectId) return typeof claim === 'string' && /^[0-9a-fA-F]{24}$/.test(claim) ? new ObjectId(claim.toLowerCase()) : NO_CLAIM;
  return typeof claim === 'string' || typeof claim === 'number' || typeof claim === 'boolean' ? claim : NO_CLAIM;
}
