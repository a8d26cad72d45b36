import { ObjectId } from 'bson';
import { badUserInput } from '../errors/public-error-code';
import { quoteInput } from '../errors/quote-input';

/** An `ID` argument as the ObjectId it names; anything but 24 hex digits is BAD_USER_INPUT naming the argument and the value. */
export function objectIdArgument(value: unknown, argumentName = 'id'): ObjectId {
  if (typeof value !== 'string' || !/^[0-9a-fA-F]{24}$/.test(value)) {
    throw badUserInput(`${argumentName} must be a 24-character hexadecimal ObjectId, got ${quoteInput(value)}`, { argumentName });
  }
  return new ObjectId(value.toLowerCase());
}
