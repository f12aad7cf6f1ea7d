// Shell completion scripts for bash, zsh and fish, generated from a CompletionSpec.
// Commands and options are written into the script; lookup names come at completion time
// from `tkt __complete KIND`, which reads the lookup cache only (instant, never the network).
import { bashScript } from './bash-script.js';
import { fishScript } from './fish-script.js';
import type { CompletionSpec } from './spec.js';
import { zshScript } from './zsh-script.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

export function completionScript(shell: Shell, spec: CompletionSpec): string {
  if (shell === 'bash') return bashScript(spec);
  if (shell === 'zsh') return zshScript(spec);
  return fishScript(spec);
}
