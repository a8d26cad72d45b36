import { processEstimateViolations } from '../../src/gateway/cost/estimate-check';
import { assertNoEstimateViolations } from './assert-no-estimate-violations';

/**
 * Jest setupFilesAfterEnv: every gateway a test file creates reports to processEstimateViolations (turned on here
 * for every gateway that does not set `checkEstimates`), so an operation that cost more than its static estimate fails
 * the test that ran it, whether or not that test looks at `errors`. afterAll catches what hooks ran.
 */
processEstimateViolations.checkByDefault = true;
afterEach(() => assertNoEstimateViolations(processEstimateViolations, 'this test'));
afterAll(() => assertNoEstimateViolations(processEstimateViolations, "this file's hooks"));
