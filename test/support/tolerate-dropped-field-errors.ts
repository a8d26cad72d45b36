import { isDroppedFieldError } from 'docjoin';

/**
 * Plain graphql-js 16 leaves some field errors unhandled (src/gateway/errors/dropped-field-errors.ts),
 * and jest fails the running test on any unhandled rejection. A test comparing answers with plain
 * graphql-js calls this in beforeAll: while it holds, those rejections are ignored, and every
 * other one still reaches jest. `restore` gives jest its listeners back.
 *
 * jest listens on the real process, which a test file does not see (its `process` is a copy): jest-circus
 * keeps it in its state, under the global symbol JEST_STATE_SYMBOL.
 */
export function tolerateDroppedFieldErrors(): { readonly restore: () => void } {
  const realProcess = jestParentProcess();
  const jestListeners = realProcess.listeners('unhandledRejection');
  const filter = (reason: unknown, promise: Promise<unknown>) => {
    if (!isDroppedFieldError(reason)) for (const listener of jestListeners) listener(reason, promise);
  };
  realProcess.removeAllListeners('unhandledRejection');
  realProcess.on('unhandledRejection', filter);
  return {
    restore() {
      realProcess.off('unhandledRejection', filter);
      for (const listener of jestListeners) realProcess.on('unhandledRejection', listener);
    },
  };
}

function jestParentProcess(): NodeJS.Process {
  const symbol = Object.getOwnPropertySymbols(globalThis).find((candidate) => candidate.description === 'JEST_STATE_SYMBOL');
  const state = symbol && (globalThis as unknown as Record<symbol, { parentProcess?: NodeJS.Process | null }>)[symbol];
  if (!state?.parentProcess) throw new Error('tolerateDroppedFieldErrors runs under jest-circus only');
  return state.parentProcess;
}
