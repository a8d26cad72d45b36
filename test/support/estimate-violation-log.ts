import type { EstimateViolation, EstimateViolationRecorder } from 'docjoin';

/** The estimate violations a test file's gateways recorded (checked-gateway.ts). */
export class EstimateViolationLog {
  readonly #violations: EstimateViolation[] = [];

  readonly record: EstimateViolationRecorder = (violation) => {
    this.#violations.push(violation);
  };

  get violations(): readonly EstimateViolation[] {
    return this.#violations;
  }

  /** Returns what was recorded and empties the log. */
  take(): EstimateViolation[] {
    return this.#violations.splice(0, this.#violations.length);
  }
}
