import { getOperationAST, parse } from 'graphql';
import { operationAccessRefusal } from '../../../../../src/gateway/operation/access/operation-access';
import { buildOperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';
import { MAX_FIELD_STEPS } from '../../../../../src/gateway/operation/plan/selection-tree';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

const SDL = /* GraphQL */ `
  type Query { notes(first: Int = 10): [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;
const { schema, ownership, storageMap } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers: {} });

/** An operation past what a plan may hold (no tree to walk), with `extra` selected besides. */
function tooLarge(extra: string, fragment = '') {
  const document = parse(`{ ${Array.from({ length: MAX_FIELD_STEPS + 1 }, (_, n) => `t${n}: __typename`).join(' ')} ${extra} } ${fragment}`);
  const plan = buildOperationPlan(schema, document, getOperationAST(document)!, {}, ownership);
  expect(plan.root).toBeUndefined();
  return plan;
}

describe('an operation too large to plan, without access rules', () => {
  const closed = { storageMap, mutations: new Map(), introspection: false } as const;

  it('is refused when it selects introspection the role may not run, directly or through a fragment', () => {
    expect(operationAccessRefusal(tooLarge('__schema { queryType { name } }'), undefined, 'anonymous', closed)).toBe('introspection is not allowed for role "anonymous"');
    expect(operationAccessRefusal(tooLarge('...F', 'fragment F on Query { __type(name: "Note") { name } }'), undefined, 'anonymous', closed)).toBe('introspection is not allowed for role "anonymous"');
  });

  it('is not refused for introspection a role may run, nor without introspection', () => {
    expect(operationAccessRefusal(tooLarge('__schema { queryType { name } }'), undefined, 'anonymous', { ...closed, introspection: true })).toBeUndefined();
    expect(operationAccessRefusal(tooLarge('__schema { queryType { name } }'), undefined, 'admin', { ...closed, introspection: ['admin'] })).toBeUndefined();
    expect(operationAccessRefusal(tooLarge('notes { text }'), undefined, 'anonymous', closed)).toBeUndefined();
  });
});
