import { createDocjoin, createGateway, type CreateGatewayOptions, type Docjoin, type DocjoinOptions, type Gateway } from 'docjoin';
import { EstimateViolationLog } from './estimate-violation-log';

/**
 * The violations of this test file's gateways: jest gives every test file its own module registry, so
 * this log is per file, and fail-on-estimate-violations.ts asserts it stays empty after each test.
 */
export const testEstimateViolations = new EstimateViolationLog();

/**
 * createGateway with the estimate self-check on, reporting to testEstimateViolations: every operation a
 * test runs must cost no more than its static estimate (options given win).
 */
export function createCheckedGateway(options: CreateGatewayOptions): Promise<Gateway> {
  return createGateway({ checkEstimates: true, onEstimateViolation: testEstimateViolations.record, ...options });
}

/** The same for createDocjoin. */
export function createCheckedDocjoin(options: DocjoinOptions): Promise<Docjoin> {
  return createDocjoin({ checkEstimates: true, onEstimateViolation: testEstimateViolations.record, ...options });
}
