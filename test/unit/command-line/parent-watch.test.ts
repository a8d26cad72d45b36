import { startedByNpmExec, watchParent } from '../../../src/command-line/parent-watch';

/** The parent watch, on an injected ppid and fake timers: told once when the parent changes, never for init. */
afterEach(() => jest.useRealTimers());

it('tells, once, which parent went when the process is re-parented', () => {
  jest.useFakeTimers();
  let parent = 4242;
  const gone: number[] = [];
  const stop = watchParent((pid) => gone.push(pid), { intervalMs: 500, currentParent: () => parent });
  jest.advanceTimersByTime(2_000);
  expect(gone).toEqual([]);
  parent = 1;
  jest.advanceTimersByTime(500);
  parent = 7;
  jest.advanceTimersByTime(5_000);
  expect(gone).toEqual([4242]);
  stop();
});

it('watches nothing when started by init (pid 1) or as a container’s first process (ppid 0)', () => {
  jest.useFakeTimers();
  for (const first of [0, 1]) {
    let parent = first;
    const gone: number[] = [];
    watchParent((pid) => gone.push(pid), { currentParent: () => parent });
    parent = 99;
    jest.advanceTimersByTime(5_000);
    expect(gone).toEqual([]);
  }
  expect(jest.getTimerCount()).toBe(0);
});

it('is on only under npx / npm exec (npm_command=exec): a parent that exits after `nohup docjoin serve &` is meant to', () => {
  expect([startedByNpmExec({ npm_command: 'exec' }), startedByNpmExec({ npm_command: 'start' }), startedByNpmExec({})]).toEqual([true, false, false]);
});

it('stops watching when asked', () => {
  jest.useFakeTimers();
  let parent = 10;
  const gone: number[] = [];
  const stop = watchParent((pid) => gone.push(pid), { currentParent: () => parent });
  stop();
  parent = 1;
  jest.advanceTimersByTime(5_000);
  expect([gone, jest.getTimerCount()]).toEqual([[], 0]);
});
