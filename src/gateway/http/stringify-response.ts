import { GraphQLError, type FormattedExecutionResult } from 'graphql';
import { PublicErrorCode } from '../errors/public-error-code';

/**
 * Apollo's `stringifyResult`: the response as JSON (with Apollo's closing newline outside production,
 * compact in it). A response longer than the longest string V8 can make (about 512 MiB: a long alias on
 * many rows) cannot be written at all: it is answered 400 RESPONSE_TOO_LARGE, as one over
 * `maxResponseBytes` is once written (http-server.ts answer).
 */
export function responseStringifier(production: boolean, maxResponseBytes: number): (result: FormattedExecutionResult) => string {
  return (result) => {
    try {
      return production ? JSON.stringify(result) : `${JSON.stringify(result)}\n`;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw new GraphQLError(
        `The response is too large to write, over the limit of ${maxResponseBytes.toLocaleString('en')} bytes (DOCJOIN_MAX_RESPONSE_BYTES); select fewer fields or ask for smaller pages`,
        { extensions: { code: PublicErrorCode.RESPONSE_TOO_LARGE, maxBytes: maxResponseBytes, http: { status: 400 } } },
      );
    }
  };
}
