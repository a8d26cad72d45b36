/**
 * The plain-function form of a generated resolver signature. codegen types each resolver as
 * `ResolverFn | { resolve }` (optional); the hand-written ones are functions, and naming that form keeps
 * their parameters and result checked against the schema while callers can still invoke them.
 */
export type ResolverFunction<TGenerated> = Extract<NonNullable<TGenerated>, (...args: never[]) => unknown>;
