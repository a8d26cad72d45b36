import { GraphQLError } from 'graphql';

/** `[extensions.code, message]` of the GraphQLError `run` throws; the error itself if it is another kind. */
export function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof GraphQLError ? [error.extensions.code, error.message] : error;
  }
  return 'no error';
}
