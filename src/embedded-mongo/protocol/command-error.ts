import type { Document } from 'bson';

/**
 * A command failure that the wire layer turns into `{ ok: 0, errmsg, code, codeName, ...extra }`,
 * with `errorLabels` when labels are given. Codes and names are MongoDB's own
 * (https://github.com/mongodb/mongo/blob/master/src/mongo/base/error_codes.yml).
 */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Document = {},
    readonly errorLabels: readonly string[] = [],
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

export const ErrorCodes = {
  BadValue: 2,
  IllegalOperation: 20,
  GraphContainsCycle: 5,
  FailedToParse: 9,
  TypeMismatch: 14,
  PathNotViable: 28,
  NamespaceNotFound: 26,
  CursorNotFound: 43,
  NamespaceExists: 48,
  MaxTimeMSExpired: 50,
  DollarPrefixedFieldName: 52,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  AuthenticationFailed: 18,
  WriteConflict: 112,
  DocumentValidationFailure: 121,
  IncompatibleCollationVersion: 161,
  ViewDepthLimitExceeded: 165,
  CommandNotSupportedOnView: 166,
  OptionNotSupportedOnView: 167,
  NoSuchTransaction: 251,
  OperationNotSupportedInTransaction: 263,
  DuplicateKey: 11000,
  MergeStageNoMatchingDocument: 13113,
  IDLFailedToParse: 40414,
  IDLUnknownField: 40415,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

/** A CommandError whose codeName is the name of its code in MongoDB's error_codes.yml. */
export function namedError(name: ErrorCodeName, message: string, extra: Document = {}): CommandError {
  return new CommandError(ErrorCodes[name], name, message, extra);
}

/**
 * Assertion ids that MongoDB reports as `Location<id>` (they have no name in error_codes.yml),
 * keyed by what they reject here.
 */
export const LocationCodes = {
  /** IDL validators (`validator: { gte, lte }`), e.g. a collation strength above 5. */
  idlValueOutOfRange: 51024,
  /** `$out`/`$merge` anywhere but last in a pipeline. */
  writeStageNotLast: 40601,
  /** `$merge` with an unsupported whenMatched/whenNotMatched pair. */
  mergeModesNotSupported: 51181,
  /** `$merge` `on` fields without a unique index on exactly those fields. */
  mergeOnFieldsNotUnique: 51183,
  /** `$merge` `on` field holding an array. */
  mergeOnFieldIsArray: 51185,
  /** `$merge` `let` with a whenMatched mode other than a pipeline. */
  mergeLetWithoutPipeline: 51199,
  /** An empty `let` variable name. */
  emptyVariableName: 16866,
  /** A `let` variable name that starts with anything but a lowercase letter or a non-ASCII character. */
  variableNameStart: 16867,
  /** A `let` variable name with a character other than letters, digits, `_` or non-ASCII. */
  variableNameCharacter: 16868,
  /** A command `let` expression that reads a document field (`"$qty"`): it runs before any document is read. */
  letReadsField: 4890500,
  /** A `$$name` that no `let` defines. */
  undefinedVariable: 17276,
  /** `$topN`/`$bottomN` with an `n` below 1. */
  nNotPositive: 5787908,
} as const;

/** A CommandError for a `Location<id>` assertion. */
export function locationError(code: (typeof LocationCodes)[keyof typeof LocationCodes], message: string): CommandError {
  return new CommandError(code, `Location${code}`, message);
}
