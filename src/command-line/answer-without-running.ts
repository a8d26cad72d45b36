import type { CliIo } from './cli-io';
import type { UsageError } from './parse-flags';

export interface HelpRequest {
  readonly kind: 'help';
}

/** The two answers every command gives without running: its usage (exit 0) or a one-line mistake (exit 2). */
export function answerWithoutRunning(commandName: string, command: HelpRequest | UsageError, usage: string, io: CliIo): number {
  switch (command.kind) {
    case 'help':
      io.out.write(`${usage}\n`);
      return 0;
    case 'usage-error':
      io.err.write(`${commandName}: ${command.message}\n`);
      return 2;
    default: {
      const unhandled: never = command;
      throw new Error(`unhandled answer ${JSON.stringify(unhandled)}`);
    }
  }
}
