/** How often the parent is checked: a stop this much late after the wrapper died is soon enough. */
export const PARENT_CHECK_MS = 500;

/**
 * Whether the process runs under `npx` / `npm exec`: npm's `sh -c` between them dies on a SIGTERM to npm
 * without passing it on. Elsewhere a parent that goes away is meant to (`nohup docjoin serve &`, a
 * daemonizing wrapper), so nothing is watched.
 */
export function startedByNpmExec(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env.npm_command === 'exec';
}

/**
 * Calls `onGone` once, with the parent's pid, when the process that started this one exits (the process
 * is then re-parented, so its ppid changes). Nothing is watched when the parent is already init (pid 1,
 * or 0 for a container's first process): there is no wrapper to lose. The check does not keep the
 * process alive. Returns the function that stops watching.
 */
export function watchParent(onGone: (parentPid: number) => void, { intervalMs = PARENT_CHECK_MS, currentParent = () => process.ppid } = {}): () => void {
  const parent = currentParent();
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (currentParent() === parent) return;
    clearInterval(timer);
    onGone(parent);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
