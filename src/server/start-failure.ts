import { CannotListenError, DatabaseMismatchError, GatewayOptionError, PortInUseError, StorageConfigError } from '../gateway';
import { MongoUnreachableError } from './mongo-unreachable-error';

/** Why a gateway did not start, written for people, and the exit code that says which kind of reason. */
export interface StartFailure {
  readonly message: string;
  /** 2: the schema or an option (server.host, a privileged port) is wrong (configuration); 1: the database does not match or cannot be reached, or the port is taken. */
  readonly exitCode: 1 | 2;
}

/**
 * The failures a start names with their fix (Type.field, the option, the URI and the reason); undefined
 * for any other error, which is a bug: its stack helps.
 */
export function startFailureOf(error: unknown): StartFailure | undefined {
  if (error instanceof StorageConfigError || error instanceof GatewayOptionError || error instanceof CannotListenError) return { message: error.message, exitCode: 2 };
  if (error instanceof DatabaseMismatchError || error instanceof MongoUnreachableError || error instanceof PortInUseError) return { message: error.message, exitCode: 1 };
  return undefined;
}
