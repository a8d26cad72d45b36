import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { selectionDepth } from '../../../../src/gateway/estimate/selection-depth';
import { demoSchema } from '../support/demo-schema';

const schema = demoSchema();

function depth(query: string, variableValues: Record<string, unknown> = {}): number {
  const document = parse(query);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  return selectionDepth({ schema, fragments, variableValues }, operation.selectionSet);
}

describe('selectionDepth', () => {
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
