import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { coalescedWrites } from '../../../src/observability/coalesced-writes';

const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

describe('coalescedWrites', () => {
  it('sends the lines of one turn of the event loop in one write at its end, in order', async () => {
    const writes: string[] = [];
    const destination = coalescedWrites({ write: (text: string) => writes.push(text) });
    destination.write('a\n');
    destination.write('b\n');
    expect(writes).toEqual([]);
    await turnEnds();
    destination.write('c\n');
    await turnEnds();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes what it holds at once when flushed, then calls back', () => {
    const writes: string[] = [];
    const destination = coalescedWrites({ write: (text: string) => writes.push(text) });
    destination.write('a\n');
    const done = jest.fn();
    destination.flush(done);
    expect([writes, done.mock.calls.length]).toEqual([['a\n'], 1]);
  });

  it("hands a flush on to the destination's own, and calls back once it is done", () => {
    const writes: string[] = [];
    const destinationFlush = jest.fn((done: () => void) => done());
    const destination = coalescedWrites({ write: (text: string) => writes.push(text), flush: destinationFlush });
    destination.write('a\n');
    const done = jest.fn();
    destination.flush(done);
    expect([writes, destinationFlush.mock.calls.length, done.mock.calls.length]).toEqual([['a\n'], 1, 1]);
  });

  it('drops the lines of a write that fails and warns once, instead of ending the process', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const destination = coalescedWrites({
        write: () => {
          throw new Error('EBADF: bad file descriptor');
        },
      });
      destination.write('a\n');
      await turnEnds();
      destination.write('b\n');
      await turnEnds();
      expect(warn.mock.calls.map(([message]) => message)).toEqual(['log lines could not be written: EBADF: bad file descriptor']);
    } finally {
      warn.mockRestore();
    }
  });

  it('writes the lines still held when the process exits in the same turn', () => {
    const module = path.resolve(__dirname, '../../../src/observability/coalesced-writes.ts');
    const script = `const { coalescedWrites } = require(${JSON.stringify(module)}); const out = coalescedWrites(process.stdout); out.write('last words\\n'); process.exit(3);`;
    let output = '';
    try {
      execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const failed = error as { status: number; stdout: string };
      expect(failed.status).toBe(3);
      output = failed.stdout;
    }
    expect(output).toBe('last words\n');
  });
});
