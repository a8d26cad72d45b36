import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compilePackage } from './peer-children';

/** The commit docjoin is compared with in the same run (PEERS_BASELINE), and where it was built. */
export interface Baseline {
  /** What PEERS_BASELINE named (`HEAD~3`, a tag, a hash). */
  readonly ref: string;
  readonly commit: string;
  /** `git log --oneline -1` of it. */
  readonly subject: string;
  /** Its worktree, with its package (dist/) built. */
  readonly directory: string;
}

/**
 * Checks out `ref` in a git worktree outside the repository (reused when it exists), gives it its
 * dependencies (this checkout's node_modules when its package-lock.json is the same, else `npm ci` of
 * its own), and builds its package (dist/), which this checkout's harness runs (docjoin-server.ts startBaseline).
 */
export function buildBaseline(repoRoot: string, ref: string): Baseline {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  let commit: string;
  try {
    commit = git('rev-parse', '--verify', `${ref}^{commit}`);
  } catch {
    throw new Error(`PEERS_BASELINE: ${ref} is not a commit of this repository`);
  }
  const directory = path.join(os.tmpdir(), `docjoin-baseline-${commit.slice(0, 12)}`);
  if (!existsSync(directory)) git('worktree', 'add', '--detach', directory, commit);
  if (!existsSync(path.join(directory, 'node_modules'))) {
    const lockOf = (root: string) => readFileSync(path.join(root, 'package-lock.json'), 'utf8');
    if (lockOf(directory) === lockOf(repoRoot)) symlinkSync(path.join(repoRoot, 'node_modules'), path.join(directory, 'node_modules'), 'dir');
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: directory, stdio: 'inherit' });
  }
  compilePackage(directory);
  return { ref, commit, subject: git('log', '--oneline', '-1', commit), directory };
}
