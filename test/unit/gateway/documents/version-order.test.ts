import { majorMinor, versionBefore } from '../../../../src/gateway/documents/version-order';

describe('server versions', () => {
  it('reads a version’s major and minor numbers, a missing or unreadable part as 0', () => {
    expect(majorMinor('7.0.12')).toEqual([7, 0]);
    expect(majorMinor('5.2')).toEqual([5, 2]);
    expect(majorMinor('6')).toEqual([6, 0]);
    expect(majorMinor('8.0.0-rc1')).toEqual([8, 0]);
    expect(majorMinor('x.y')).toEqual([0, 0]);
  });

  it('orders versions by major, then minor', () => {
    expect(versionBefore('5.0.14', [5, 2])).toBe(true);
    expect(versionBefore('4.4.29', [5, 0])).toBe(true);
    expect(versionBefore('5.2.0', [5, 2])).toBe(false);
    expect(versionBefore('6.0', [5, 2])).toBe(false);
    expect(versionBefore('10.0.1', [9, 9])).toBe(false);
  });
});
