// An interactive shell on a real terminal (tmux, on a private socket) with tkt's completion
// script loaded as the README says, for the completion tests. Lookup names come from a stand-in
// `tkt __complete` on PATH, so no session or sandbox is needed.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, privateTmux } from './terminal.js';

/** What the stand-in `tkt __complete KIND` prints. */
export const CACHED_NAMES: Record<string, string[]> = { site: ['Head Office', 'Harbour Depot'], status: ['Open', 'On Hold'], requester: ["Sam O'Neil"], assignee: ['Tom Tech'] };

type Shell = 'bash' | 'zsh' | 'fish';

const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/** What a session of `shell` needs, for skipWithout: bash's loads bash-completion, as the README installs it. */
export const toolsFor = (shell: Shell): string[] => ['tmux', shell, ...(shell === 'bash' ? [BASH_COMPLETION] : [])];

export interface ShellSession {
  /** Types `line`, presses Tab, returns the screen once a line matches `pattern`, then clears the line. */
  complete(line: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export async function startShellSession(shell: Shell): Promise<ShellSession> {
  const terminal = privateTmux(`${shell}-test`);
  const home = mkdtempSync(path.join(os.tmpdir(), `tkt-${shell}-`));
  const script = execFileSync(process.execPath, [BIN, 'completion', shell], { encoding: 'utf8' });
  mkdirSync(path.join(home, 'bin'));
  const cases = Object.entries(CACHED_NAMES).map(([kind, names]) => `  ${kind}) printf '%s\\n' ${names.map(shellQuoted).join(' ')} ;;`);
  writeFileSync(path.join(home, 'bin', 'tkt'), `#!/bin/sh\n[ "$1" = __complete ] || exit 0\ncase "$2" in\n${cases.join('\n')}\nesac\n`);
  chmodSync(path.join(home, 'bin', 'tkt'), 0o755);
  const env = `env -i HOME=${home} ZDOTDIR=${home} HISTFILE=/dev/null PATH=${path.join(home, 'bin')}:/usr/bin:/bin TERM=xterm-256color`;
  let command: string;
  if (shell === 'zsh') {
    // A folder the user owns on fpath, then compinit.
    mkdirSync(path.join(home, '.zsh', 'functions'), { recursive: true });
    writeFileSync(path.join(home, '.zsh', 'functions', '_tkt'), script);
    writeFileSync(path.join(home, '.zshrc'), `fpath=(~/.zsh/functions $fpath)\nautoload -Uz compinit && compinit -u\nPS1='${shell}> '\n`);
    command = `${env} zsh -i`;
  } else if (shell === 'fish') {
    // fish loads ~/.config/fish/completions/tkt.fish by itself.
    mkdirSync(path.join(home, '.config', 'fish', 'completions'), { recursive: true });
    // Present, so fish does not start generating completions from man pages in the background.
    mkdirSync(path.join(home, '.local', 'share', 'fish', 'generated_completions'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'fish', 'completions', 'tkt.fish'), script);
    writeFileSync(path.join(home, '.config', 'fish', 'config.fish'), `function fish_prompt; echo -n '${shell}> '; end\nfunction fish_greeting; end\n`);
    command = `${env} XDG_CONFIG_HOME=${path.join(home, '.config')} fish -i`;
  } else {
    // After bash-completion, as a ~/.bashrc would.
    writeFileSync(path.join(home, 'tkt.bash'), script);
    writeFileSync(path.join(home, '.bashrc'), `. ${BASH_COMPLETION}\nsource ~/tkt.bash\nPS1='${shell}> '\n`);
    command = `${env} bash --noprofile --rcfile ${path.join(home, '.bashrc')} -i`;
  }
  // A file to complete where tkt takes files, and to stay out of ID completion.
  writeFileSync(path.join(home, 'report.txt'), 'x');
  await terminal.start(shell, { width: 160, height: 40 }, `cd '${home}' && exec ${command}`);
  await terminal.waitFor(shell, new RegExp(`^${shell}>`, 'm'));

  return {
    async complete(line, pattern, timeoutMs) {
      await terminal.type(shell, line);
      await terminal.keys(shell, 'Tab');
      try {
        return await terminal.waitFor(shell, pattern, timeoutMs === undefined ? {} : { timeoutMs });
      } finally {
        await terminal.keys(shell, 'C-c');
        await terminal.keys(shell, 'clear', 'Enter');
      }
    },
    async close() {
      await terminal.close();
      // A shell killed with its server may still be writing its history there.
      rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
