import { ObjectId } from 'bson';
import { describeCondition, sameValue, type RowCondition } from '../../../../../src/gateway/startup/access-rules/access-rule-types';

const condition = (equals: RowCondition['equals'], fieldName = 'owner'): RowCondition => ({ fieldName, path: fieldName, equals, objectId: false });

describe('row conditions: a claim or a constant', () => {
  it('names each as explain and the startup messages show it', () => {
    expect(describeCondition(condition({ claim: 'sub' }))).toBe('owner = claim sub');
    expect(describeCondition(condition({ constant: true }, 'published'))).toBe('published = true');
    expect(describeCondition(condition({ constant: 'DRAFT' }, 'status'))).toBe('status = "DRAFT"');
    expect(describeCondition(condition({ constant: new ObjectId('67c000000000000000000001') }, 'customer'))).toBe('customer = ObjectId("67c000000000000000000001")');
  });

  it('compares the same claim, or equal constants, as the same value; never a claim with a constant', () => {
    expect(sameValue(condition({ claim: 'sub' }), condition({ claim: 'sub' }))).toBe(true);
    expect(sameValue(condition({ claim: 'sub' }), condition({ claim: 'tenant' }))).toBe(false);
    expect(sameValue(condition({ constant: 5 }), condition({ constant: 5 }))).toBe(true);
    expect(sameValue(condition({ constant: 5 }), condition({ constant: '5' }))).toBe(false);
    expect(sameValue(condition({ claim: 'true' }), condition({ constant: true }))).toBe(false);
  });
});
