import { effectiveServerVersion } from '../../../../../src/gateway/request/mongo/server-version';

describe('effectiveServerVersion', () => {
  it('is the binary’s version unless its featureCompatibilityVersion is older, as mid-upgrade', () => {
    expect(effectiveServerVersion('7.0.12', '7.0')).toBe('7.0.12');
    expect(effectiveServerVersion('7.0.12', undefined)).toBe('7.0.12');
    expect(effectiveServerVersion('6.0.3', '5.0')).toBe('5.0 (the featureCompatibilityVersion of a 6.0.3 server)');
    expect(effectiveServerVersion('5.2.1', '5.0')).toBe('5.0 (the featureCompatibilityVersion of a 5.2.1 server)');
  });
});
