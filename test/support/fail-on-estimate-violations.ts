import { assertNoEstimateViolations } from './assert-no-estimate-violations';
import { testEstimateViolations } from './checked-gateway';

/**
 * Jest setupFilesAfterEnv: every gateway a test file builds with checked-gateway.ts reports to
 * testEstimateViolations, so an operation that cost more than its static estimate fails the test that
 * ran it, whether or not that test looks at `errors`. afterAll catches what hooks ran.
 */
afterEach(() => assertNoEstimateViolations(testEstimateViolations, 'this test'));
afterAll(() => assertNoEstimateViolations(testEstimateViolations, "this file's hooks"));
