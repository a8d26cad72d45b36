import { MongoServerError } from 'mongodb';
import { DatabaseFailure } from '../../../../src/gateway/errors/internal-errors';
import { totalOverflow } from '../../../../src/gateway/writes/write-errors';

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
