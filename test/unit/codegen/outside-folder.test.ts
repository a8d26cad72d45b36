import path from 'node:path';
import { commonFolder, isOutside } from '../../../src/codegen/outside-folder';

describe('commonFolder', () => {
  it('is the deepest folder holding them all', () => {
    expect(commonFolder(['/work/client/src', '/work/client/types', '/work/client/src/deep'], path.posix)).toBe('/work/client');
    expect(commonFolder(['/a', '/b'], path.posix)).toBe('/');
    expect(commonFolder(['C:\\work\\client', 'C:\\work\\web\\src'], path.win32)).toBe('C:\\work');
  });

  it('is none for folders on two Windows drives, where it climbed C:\\ forever', () => {
    expect(commonFolder(['C:\\a', 'D:\\b'], path.win32)).toBe('');
  });
});

describe('isOutside', () => {
  it('tells a way out of the folder from a way into it, on either platform', () => {
    expect([isOutside('..', path.posix), isOutside('../x', path.posix), isOutside('..x', path.posix), isOutside('x/..y', path.posix)]).toEqual([true, true, false, false]);
    expect([isOutside('..\\x', path.win32), isOutside('D:\\b', path.win32), isOutside('x', path.win32)]).toEqual([true, true, false]);
  });
});
