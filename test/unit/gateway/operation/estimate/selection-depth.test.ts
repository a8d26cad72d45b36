import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { selectionDepth } from '../../../../../src/gateway/operation/plan/selection-depth';
import { buildOperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';
import { demoSchema } from '../../support/demo-schema';

const schema = demoSchema();

/**
 * The depth the plan measures on its selection tree, checked against selectionDepth, which measures it
 * on the document (for operations too large to plan): both must agree.
 */
function depth(query: string, variableValues: Record<string, unknown> = {}): number {
  const document = parse(query);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const plan = buildOperationPlan(schema, document, operation, variableValues);
  expect(plan.root).toBeDefined();
  expect(selectionDepth({ schema, fragments: plan.fragments, variableValues }, operation.selectionSet)).toBe(plan.depth);
  return plan.depth;
}

describe('the depth of a plan, and selectionDepth on the document', () => {
  it('counts nested selection sets', () => {
    expect(depth('{ books { name } }')).toBe(1);
    expect(depth('{ books { publisher { name } } }')).toBe(2);
    expect(depth('{ books { name } people { holdings { stock { symbol } } } }')).toBe(3);
  });

  it('counts fragments where they are spread, inline fragments not at all', () => {
    expect(depth('query { books { ...B } } fragment B on Book { publisher { books { name } } }')).toBe(3);
    expect(depth('{ person(id: "x") { contactDetails { ... on EmailContact { email } } } }')).toBe(2);
  });

  it('skips @skip/@include(false) selections and introspection', () => {
    expect(depth('query ($deep: Boolean!) { books { publisher @include(if: $deep) { books { name } } } }', { deep: false })).toBe(1);
    expect(depth('query ($deep: Boolean!) { books { publisher @include(if: $deep) { books { name } } } }', { deep: true })).toBe(3);
    expect(depth('{ __schema { types { fields { type { ofType { name } } } } } books { name } }')).toBe(1);
  });
});
