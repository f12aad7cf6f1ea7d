// Tests that drive tmux or a real shell: in CI (CI set) a missing tool must fail them, so they
// run there rather than pass by skipping; elsewhere they skip, loudly.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** `tool` is a command on PATH, or a file by its absolute path (bash-completion is sourced, not run). */
function installed(tool: string): boolean {
  if (path.isAbsolute(tool)) return existsSync(tool);
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** True when the tests of `file` should skip: some of `tools` is missing and this is not CI. */
export function skipWithout(tools: string[], file: string): boolean {
  const missing = tools.filter((tool) => !installed(tool));
  if (missing.length === 0) return false;
  if (process.env.CI) throw new Error(`${file} needs ${missing.join(', ')}, missing on this CI machine (.ci/run installs them)`);
  console.warn(`SKIPPED ${file}: ${missing.join(', ')} not installed`);
  return true;
}
