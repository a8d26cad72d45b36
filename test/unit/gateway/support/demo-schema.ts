import { directiveTypeDefs } from 'docjoin';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { getOperationAST, parse, type GraphQLSchema } from 'graphql';
import { demoTypeDefs } from '../../../support/demo-project';
import type { SelectionSource } from '../../../../src/gateway/operation/plan/selection-source';
import { buildOperationPlan } from '../../../../src/gateway/operation/plan/operation-plan';
import type { FieldStep } from '../../../../src/gateway/operation/plan/selection-tree';

export const DIRECTIVES_SDL = directiveTypeDefs;

/** A schema from the repository's directives plus `sdl` (no resolvers: planning and validation only). */
export function schemaOf(sdl: string): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: [DIRECTIVES_SDL, sdl] });
}

export function demoSchema(): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: demoTypeDefs() });
}

/** The plan's step at `path` (response keys from the root, each on its field's object type) of `query`, with what planning needs. */
export function stepAt(schema: GraphQLSchema, query: string, path: readonly string[], variableValues: Record<string, unknown> = {}): { source: SelectionSource; step: FieldStep } {
  const document = parse(query);
  const plan = buildOperationPlan(schema, document, getOperationAST(document)!, variableValues);
  let selection = plan.root!;
  let step: FieldStep | undefined;
  for (const key of path) {
    step = selection.fields.find((field) => field.responseKey === key);
    if (!step) throw new Error(`no field ${key} in query`);
    selection = step.children[0]!;
  }
  return { source: { schema, fragments: plan.fragments, variableValues }, step: step! };
}
