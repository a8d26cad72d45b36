import { Decimal128, ObjectId } from 'mongodb';
import { addTotalMoves } from '../../../../src/gateway/writes/total-planner';
import { UpdateMerger, type PlannedUpdate } from '../../../../src/gateway/writes/write-steps';
import type { TotalRule } from '../../../../src/gateway/startup/write-model/write-model-types';

const BALANCE: TotalRule = {
  coordinate: 'Account.balance', collection: 'accounts', path: 'balance', of: 'Account.entries', childType: 'Entry', childCollection: 'entries',
  childKey: 'accountId', parentKey: '_id', summedField: 'amount', summedPath: 'amount', summedScalar: 'Decimal', scalar: 'Decimal',
};
const a = new ObjectId();
const b = new ObjectId();
const decimal = (text: string) => Decimal128.fromString(text);
/** The `$inc`s an update of an entry moves its accounts' balance by. */
function planTotalUpdate(totals: readonly TotalRule[], before: Record<string, unknown>, $set: Record<string, unknown>): PlannedUpdate[] {
  const merger = new UpdateMerger();
  addTotalMoves(merger, totals, before, $set);
  return merger.planned();
}
const plain = (planned: PlannedUpdate[]) => planned.map(({ collection, statement }) => [collection, statement.filter._id, JSON.parse(JSON.stringify(statement.update))]);

describe('addTotalMoves', () => {
  it('moves the parent total by the exact difference, and not at all when the value is the same', () => {
    expect(plain(planTotalUpdate([BALANCE], { accountId: a, amount: decimal('0.1') }, { amount: decimal('0.35') }))).toEqual([['accounts', a, { $inc: { balance: { $numberDecimal: '0.25' } } }]]);
    expect(planTotalUpdate([BALANCE], { accountId: a, amount: decimal('0.1') }, { amount: decimal('0.10') })).toEqual([]);
  });

  it('takes the old value from the old parent and adds the new one to the new parent when the child moves', () => {
    expect(plain(planTotalUpdate([BALANCE], { accountId: a, amount: decimal('2') }, { accountId: b, amount: decimal('3') }))).toEqual([
      ['accounts', a, { $inc: { balance: { $numberDecimal: '-2' } } }],
      ['accounts', b, { $inc: { balance: { $numberDecimal: '3' } } }],
    ]);
  });

  it('counts a missing or non-numeric value as nothing, as $sum skips it', () => {
    expect(plain(planTotalUpdate([BALANCE], { accountId: a }, { amount: decimal('4') }))).toEqual([['accounts', a, { $inc: { balance: { $numberDecimal: '4' } } }]]);
    expect(plain(planTotalUpdate([BALANCE], { accountId: a, amount: decimal('4') }, { amount: null }))).toEqual([['accounts', a, { $inc: { balance: { $numberDecimal: '-4' } } }]]);
    expect(planTotalUpdate([BALANCE], { amount: decimal('4') }, { amount: decimal('5') })).toEqual([]);
  });
});
