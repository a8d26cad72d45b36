import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { execute, getVariableValues, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode, type SourceLocation } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** What Apollo Server takes as `gateway`: its one seam for running operations with an executor of one's own. */
export type CompiledExecutionGateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];

/**
 * Serves `schema` through Apollo Server's gateway seam, executing each operation with graphql-jit: the
 * operation is compiled once into a JavaScript function (field lookups, argument values, list and null
 * handling written out for that selection) and run for every request that sends it. Apollo keeps each
 * query string's parsed document in its document store, so the compiled form is cached per document
 * and lives as long as Apollo keeps it. Parsing, validation, the plugins and error formatting stay
 * Apollo's; variables are coerced by graphql-js first, so a bad one is refused exactly as without this.
 * An operation graphql-jit cannot compile runs on graphql-js.
 */
export function compiledExecution(schema: GraphQLSchema): CompiledExecutionGateway {
  const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | undefined>>();
  const compiledFor = (document: DocumentNode, operationName: string | null): CompiledQuery | undefined => {
    let byOperation = compiled.get(document);
    if (!byOperation) compiled.set(document, (byOperation = new Map()));
    const key = operationName ?? '';
    if (byOperation.has(key)) return byOperation.get(key);
    const result = compileQuery(schema, document, operationName ?? undefined);
    const query = isCompiledQuery(result) ? result : undefined;
    byOperation.set(key, query);
    return query;
  };
  const run = async (document: DocumentNode, operation: OperationDefinitionNode, operationName: string | null, context: unknown, variables: Record<string, unknown>): Promise<ExecutionResult> => {
    if (operation.variableDefinitions?.length) {
      const coerced = getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 50 });
      if (coerced.errors) return { errors: coerced.errors };
    }
    const query = compiledFor(document, operationName);
    if (!query) return execute({ schema, document, contextValue: context, variableValues: variables, ...(operationName !== null && { operationName }) });
    const result = await query.query(undefined, context, variables);
    return result.errors ? { ...result, errors: result.errors.map((error) => asGraphqlJsError(error, document)) } : result;
  };
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    load: () => Promise.resolve({ executor: ({ document, operation, operationName, context, request }) => run(document, operation, operationName, context, request.variables ?? {}) }),
    stop: () => Promise.resolve(),
  };
}

/**
 * graphql-jit's errors are GraphQLErrors by prototype only: no `extensions` object (Apollo reads its
 * `code`) and locations without nodes. The same error as graphql-js builds it: message, path, original
 * error and its extensions, and the locations as positions in the operation's source.
 */
function asGraphqlJsError(error: GraphQLError, document: DocumentNode): GraphQLError {
  const source = document.loc?.source;
  const locations: readonly SourceLocation[] = error.locations ?? [];
  return new GraphQLError(error.message, {
    ...(source && locations.length > 0 && { source, positions: locations.map((location) => positionOf(source.body, location)) }),
    ...(error.path && { path: error.path }),
    ...(error.originalError && { originalError: error.originalError }),
    ...(error.extensions && { extensions: error.extensions }),
  });
}

/** The character offset of a 1-based line and column in `body`. */
function positionOf(body: string, location: SourceLocation): number {
  let offset = 0;
  for (let line = 1; line < location.line; line++) {
    const next = body.indexOf('\n', offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return offset + location.column - 1;
}
