import { MongoServerError } from 'mongodb';
import { DatabaseFailure } from '../../../../src/gateway/errors/internal-errors';
import { derivedValueMistyped, totalOverflow } from '../../../../src/gateway/writes/write-errors';

/** MongoDB's answer to an `$inc` past 2^63 - 1, as the driver raises it. */
const incOverflow = () => new MongoServerError({ code: 2, codeName: 'BadValue', errmsg: "Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: 1}" });

describe('totalOverflow', () => {
  it('tells a client inside a transaction that nothing was written', () => {
    const error = totalOverflow('Mutation.createEntry', incOverflow(), true);
    expect({ message: error?.message, code: error?.extensions.code }).toEqual({
      message: 'Mutation.createEntry: a total or counter this write moves would pass the largest Long (9223372036854775807), so nothing was written',
      code: 'BAD_USER_INPUT',
    });
  });

  it('tells a client without a transaction that what came before stands, and how to find it', () => {
    const error = totalOverflow('Mutation.createEntry', new DatabaseFailure('update', incOverflow()), false);
    expect({ message: error?.message, code: error?.extensions.code }).toEqual({
      message:
        'Mutation.createEntry: a total or counter this write moves would pass the largest Long (9223372036854775807), so it was left as it was; without a transaction, what the write changed before it stands (docjoin reconcile reports the drift)',
      code: 'BAD_USER_INPUT',
    });
  });

  it('leaves every other server error alone', () => {
    expect(totalOverflow('Mutation.createEntry', new MongoServerError({ code: 2, errmsg: 'bad $set' }), true)).toBeUndefined();
    expect(totalOverflow('Mutation.createEntry', new Error('Failed to apply $inc'), true)).toBeUndefined();
  });
});

describe('derivedValueMistyped', () => {
  // MongoDB 7.0's messages, as the driver raises them.
  const incOnNull = new MongoServerError({ code: 14, codeName: 'TypeMismatch', errmsg: "Cannot apply $inc to a value of non-numeric type. {_id: ObjectId('65a000000000000000000001')} has the field 'commentCount' of non-numeric type null" });
  const pushOnNull = new MongoServerError({ code: 2, codeName: 'BadValue', errmsg: "The field 'recentComments' must be an array but is of type null in document {_id: ObjectId('65a000000000000000000001')}" });

  it('answers an $inc of a value that is no number and a $push onto one that is no array, without the document MongoDB names', () => {
    const pullOnNull = new MongoServerError({ code: 2, codeName: 'BadValue', errmsg: 'Cannot apply $pull to a non-array value' });
    const messages = [incOnNull, new DatabaseFailure('update', pushOnNull), pullOnNull].map((cause) => derivedValueMistyped('Mutation.addComment', cause, true));
    expect(messages.map((error) => [error?.extensions.code, error?.message])).toEqual(
      Array(3).fill([
        'BAD_USER_INPUT',
        'Mutation.addComment: a counter, total or list this write keeps in step is stored as another type (null, or no number or list) in a document it writes, so nothing was written; run docjoin reconcile --fix to compute it again',
      ]),
    );
  });

  it('leaves other TypeMismatch and BadValue errors alone', () => {
    expect(derivedValueMistyped('Mutation.addComment', new MongoServerError({ code: 14, errmsg: 'Cannot increment with non-numeric argument: {a: "x"}' }), true)).toBeUndefined();
    expect(derivedValueMistyped('Mutation.addComment', new MongoServerError({ code: 2, errmsg: 'bad $set' }), true)).toBeUndefined();
  });
});
