// An interactive shell on a real terminal (tmux, on a private socket) with tkt's completion
// script loaded as the README says, for the completion tests. Lookup names come from a stand-in
// `tkt __complete` on PATH, so no session or sandbox is needed.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, privateTmux } from './terminal.js';

/** What the stand-in `tkt __complete KIND` prints. */
export const CACHED_NAMES: Record<string, string[]> = {
  site: ['Head Office', 'Harbour Depot'],
  status: ['Open', 'On Hold', 'In Progress'],
  priority: ['Low', 'Medium', 'High', 'Urgent'],
  requester: ["Sam O'Neil", 'Anna Berg', 'Anna Lind', 'Jörg Müller'],
  assignee: ['Tom Tech'],
  profile: ['work', 'staging'],
  template: ['printer-fixed', 'welcome'],
  alias: ['mine'],
  'alias:mine': ['list', '--view', 'my-open-tickets'],
};

/** A file and a folder in the shell's working folder whose names have spaces and a non-ASCII letter. */
export const FILE_WITH_SPACES = 'my file ü.txt';
export const FOLDER_WITH_SPACES = 'our dir ü';

type Shell = 'bash' | 'zsh' | 'fish';

const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';

/** What a session of `shell` needs, for skipWithout: bash's loads bash-completion, as the README installs it. */
export const toolsFor = (shell: Shell): string[] => ['tmux', shell, ...(shell === 'bash' ? [BASH_COMPLETION] : [])];

// Every step starts from an empty prompt on a cleared screen, so nothing a step reads can be
// left from the one before.
export interface ShellSession {
  /** Types `line`, presses Tab, returns the screen once it matches `pattern`. */
  complete(line: string, pattern: RegExp): Promise<string>;
  /**
   * Types `line`, asks for the list of candidates as a user of the shell does (bash: Tab Tab,
   * zsh and fish: Tab), returns the screen once `test` accepts it.
   */
  list(line: string, test: (screen: string) => boolean): Promise<string>;
  /**
   * Types `line`, presses Tab, returns the screen once the shell has done all the Tab does: for
   * asserting what it does not offer, which a screen read too early would show as well.
   */
  afterTab(line: string): Promise<string>;
  close(): Promise<void>;
}

const shellQuoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A locale the shell runs in: LANG, found in LOCPATH (a folder localedef wrote it to). */
export interface Locale {
  name: string;
  path: string;
}

export async function startShellSession(shell: Shell, locale?: Locale): Promise<ShellSession> {
  const prompt = `${shell}>`;
  const terminal = privateTmux(`${shell}-test`);
  const home = mkdtempSync(path.join(os.tmpdir(), `tkt-${shell}-`));
  const script = execFileSync(process.execPath, [BIN, 'completion', shell], { encoding: 'utf8' });
  mkdirSync(path.join(home, 'bin'));
  const cases = Object.entries(CACHED_NAMES).map(([kind, names]) => `  ${kind}) printf '%s\\n' ${names.map(shellQuoted).join(' ')} ;;`);
  writeFileSync(path.join(home, 'bin', 'tkt'), `#!/bin/sh\n[ "$1" = __complete ] || exit 0\ncase "$2" in\n${cases.join('\n')}\nesac\n`);
  chmodSync(path.join(home, 'bin', 'tkt'), 0o755);
  // A UTF-8 locale, as a user's terminal has: in the C locale the shells write a non-ASCII letter as bytes ($'\303\274').
  const lang = locale === undefined ? 'LANG=C.UTF-8' : `LOCPATH=${locale.path} LANG=${locale.name}`;
  const env = `env -i ${lang} HOME=${home} ZDOTDIR=${home} HISTFILE=/dev/null PATH=${path.join(home, 'bin')}:/usr/bin:/bin TERM=xterm-256color`;
  let command: string;
  if (shell === 'zsh') {
    // A folder the user owns on fpath, then compinit.
    mkdirSync(path.join(home, '.zsh', 'functions'), { recursive: true });
    writeFileSync(path.join(home, '.zsh', 'functions', '_tkt'), script);
    writeFileSync(path.join(home, '.zshrc'), `fpath=(~/.zsh/functions $fpath)\nautoload -Uz compinit && compinit -u\nPS1='${prompt} '\n`);
    command = `${env} zsh -i`;
  } else if (shell === 'fish') {
    // fish loads ~/.config/fish/completions/tkt.fish by itself.
    mkdirSync(path.join(home, '.config', 'fish', 'completions'), { recursive: true });
    // Present, so fish does not start generating completions from man pages in the background.
    mkdirSync(path.join(home, '.local', 'share', 'fish', 'generated_completions'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'fish', 'completions', 'tkt.fish'), script);
    writeFileSync(path.join(home, '.config', 'fish', 'config.fish'), `function fish_prompt; echo -n '${prompt} '; end\nfunction fish_greeting; end\n`);
    command = `${env} XDG_CONFIG_HOME=${path.join(home, '.config')} fish -i`;
  } else {
    // After bash-completion, as a ~/.bashrc would.
    writeFileSync(path.join(home, 'tkt.bash'), script);
    writeFileSync(path.join(home, '.bashrc'), `. ${BASH_COMPLETION}\nsource ~/tkt.bash\nPS1='${prompt} '\n`);
    command = `${env} bash --noprofile --rcfile ${path.join(home, '.bashrc')} -i`;
  }
  // The one file starting "rep": a shell that offers files puts it in the line rather than in a
  // list of candidates, which the keys typed after the Tab could dismiss (fish does).
  writeFileSync(path.join(home, 'report.txt'), 'x');
  // Names a shell must escape, with a letter outside ASCII: the only ones starting "my" and "our".
  writeFileSync(path.join(home, FILE_WITH_SPACES), 'x');
  mkdirSync(path.join(home, FOLDER_WITH_SPACES));
  writeFileSync(path.join(home, FOLDER_WITH_SPACES, 'inner file.txt'), 'x');
  await terminal.start(shell, { width: 160, height: 40 }, `cd '${home}' && exec ${command}`);
  // Keys are for the line editor, which reads them once the prompt shows.
  await terminal.waitFor(shell, new RegExp(`^${prompt}`, 'm'), { what: `${shell} to start` });

  const enter = async (command: string) => {
    await terminal.type(shell, command);
    await terminal.keys(shell, 'Enter');
  };
  // Numbered, so no screen left from an earlier step can show the one a step waits for.
  let marks = 0;
  const nextMark = (kind: string) => `${kind}-${(marks += 1)}`;

  async function freshPrompt(): Promise<void> {
    // Editing keys, not Ctrl-C, empty the line: Ctrl-C can take effect after the keys typed next
    // (zsh and bash get it as a signal; seen in all three: "…report.txt c", then "lear" on a new
    // line, and no clear). Keys are read in order: once the mark shows, all before it is done.
    await terminal.keys(shell, 'C-a', 'C-k');
    const mark = nextMark('reset');
    await enter(`echo ${mark}`);
    await terminal.waitFor(shell, new RegExp(`^${mark}$`, 'm'), { what: `the output of echo ${mark}` });
    await enter('clear');
    await terminal.waitFor(shell, (screen) => screen.trim() === prompt, { what: 'a cleared screen with only the prompt' });
  }

  async function tab(line: string, ...keys: string[]): Promise<void> {
    await freshPrompt();
    await terminal.type(shell, line);
    await terminal.keys(shell, ...(keys.length > 0 ? keys : ['Tab']));
  }

  return {
    async complete(line, pattern) {
      await tab(line);
      return terminal.waitFor(shell, pattern);
    },
    async list(line, test) {
      await tab(line, ...(shell === 'bash' ? ['Tab', 'Tab'] : ['Tab']));
      return terminal.waitFor(shell, test, { what: `the candidates for "${line}"` });
    },
    async afterTab(line) {
      await tab(line);
      // The shell reads keys in order: what is typed after the Tab shows once the Tab is done.
      const sentinel = nextMark('tab-done');
      await terminal.type(shell, ` ${sentinel}`);
      return terminal.waitFor(shell, new RegExp(` ${sentinel}$`, 'm'), { what: `${sentinel}, typed after the Tab` });
    },
    async close() {
      await terminal.close();
      // A shell killed with its server may still be writing its history there.
      rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
