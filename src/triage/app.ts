// Runs the triage screen: the alternate screen (the shell's scrollback is left as it was), the
// program (update.ts's state and effects.ts's effects) drawn by Ink, and the terminal lent to
// the editor and the pager (Context.lendTerminal, with the screen as its holder).
//
// Why Ink: the most used and best kept terminal UI library for Node (React components, its
// own input parser with arrows, PgUp/PgDn, Home/End, resize handling, frames written in one
// synchronized update), MIT, with 6.x the line that supports Node 20 (7.x needs Node 22).
// blessed and its forks are unmaintained; terminal-kit draws without a layout model. Ink and
// React weigh about a megabyte, in chunks that only `tkt triage` loads.
import { render, type Instance } from 'ink';
import { createElement as h } from 'react';
import type { Context } from '../context/context.js';
import { InterruptedError, isStopSignal } from '../errors.js';
import { profileToName } from '../config/session.js';
import { freshLogin } from '../context/fresh-login.js';
import { fillForTicket, frontMatterWarnings, readTemplate, templateNames } from '../desk/templates.js';
import { createLookups } from '../lookups/index.js';
import { readTicket } from '../model/ticket.js';
import { renderTicketDetail } from '../reading/detail.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from '../util/terminal-input.js';
import type { TerminalHolder } from '../util/terminal-handoff.js';
import { createTicketActions } from './actions.js';
import { saveDrafts } from './drafts.js';
import { createEffectRunner } from './effects.js';
import { pageInTriage } from './pager.js';
import { startProgram, type TriageProgram } from './program.js';
import { TriageScreen } from './screen.js';
import type { Ending } from './state.js';
import { watchTerminalSize } from './terminal-size.js';
import type { TerminalSize } from '../output/terminal-size.js';
import { start } from './update.js';

/** The terminal height from which the screen leaves its last line empty (screenSize, below). */
const SPARE_LINE_FROM = 12;
// Cleared too: after a program that draws on the alternate screen without leaving it (a
// graphical editor's "waiting" line), the terminal is still on it.
const ALTERNATE_SCREEN = '\x1b[?1049h\x1b[2J\x1b[H';
const MAIN_SCREEN = '\x1b[?1049l';
const CLEAR_SCREEN = '\x1b[2J\x1b[H';
export interface TriageRun {
  /** A list type, as the API spells it. */
  view: string;
  /** --interval, in milliseconds: the view read again that often. */
  intervalMs?: number | undefined;
}

export async function runTriage(ctx: Context, options: TriageRun): Promise<void> {
  // Nothing the actions run may ask at the terminal: the screen owns it (a token without a user
  // ID is then an error that names the command to use instead). The login is read again after
  // a refusal and with each read of the view, as tkt mcp reads it for each call: a `tkt login`
  // in another shell lets the screen go on (effects.ts).
  const login = freshLogin({ ...ctx, io: { ...ctx.io, canPrompt: false } });
  const quietCtx = login.ctx;
  // No login: the run fails before the screen is drawn, as any command's would.
  await quietCtx.api();
  const lookups = createLookups(quietCtx);
  const stdout = ctx.io.stdout as NodeJS.WriteStream;
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  const color = ctx.io.stdoutColor;
  let instance: Instance | undefined;
  // Aborted on leaving: a pending --interval wait must not keep the process alive.
  const closing = new AbortController();

  // The screen leaves the terminal's last line empty: a frame as tall as the terminal makes Ink
  // clear the whole terminal at each key, its scrollback too (ESC[3J), which a screen reader then
  // reads again whole. One line shorter, Ink writes the frame over the last one: the lines that
  // did not change stay as they were on the screen. (Ink 6.8's incrementalRendering, which would
  // write only those that changed, draws a frame that ends with a line break one line too low.)
  // Below SPARE_LINE_FROM lines every line is worth more, but for a screen reader: in a frame as
  // tall as the terminal, Ink places the cursor a line too high.
  const screenSize = (): TerminalSize => {
    const size = ctx.io.size();
    return size.rows < SPARE_LINE_FROM && !ctx.io.screenReader ? size : { ...size, rows: Math.max(1, size.rows - 1) };
  };
  const mount = () => {
    stdout.write(ALTERNATE_SCREEN + BRACKETED_PASTE_ON);
    instance = render(h(TriageScreen, { program, color, now: ctx.now, screenReader: ctx.io.screenReader }), {
      stdout,
      stdin,
      stderr: ctx.io.stderr as NodeJS.WriteStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  };
  /** Ink gone, pastes unmarked: the editor, the pager and the shell get the terminal as it was. */
  const unmount = async () => {
    if (instance === undefined) return;
    const leaving = instance;
    instance = undefined;
    leaving.unmount();
    await leaving.waitUntilExit().catch(() => undefined);
    stdout.write(BRACKETED_PASTE_OFF);
  };
  // While a program has the terminal, the alternate screen stays, cleared: what it prints (an
  // editor's "waiting for your editor" line) goes where triage was drawn, never into the
  // shell's screen, which is left only on quit. A full-screen program switches screens itself.
  const screen: TerminalHolder = {
    async release() {
      // Keys typed ahead of the editor or the pager are not theirs to have, nor triage's (typed-ahead.ts).
      program.dispatch({ kind: 'terminalLent' });
      await unmount();
      stdout.write(CLEAR_SCREEN);
    },
    retake() {
      if (!program.snapshot().ended) mount();
    },
  };
  // Ctrl-Z: the shell gets its own screen back; on fg the screen comes back at the terminal's size then.
  const suspended: TerminalHolder = {
    async release() {
      await unmount();
      stdout.write(MAIN_SCREEN);
    },
    retake() {
      const { columns, rows } = screenSize();
      program.dispatch({ kind: 'resized', columns, rows });
      screen.retake();
    },
  };
  // Unknown front-matter keys of the templates used, said on the shell's screen after the run: stderr would write over the screen.
  const frontMatterWarned = new Set<string>();
  // The editor or pager has the terminal: a Ctrl-C there is theirs (Context.lendTerminal).
  const runEffect = createEffectRunner({
    api: quietCtx.api,
    readLoginAgain: login.readAgain,
    lookups,
    // A $BROWSER run at the terminal (w) has it as the editor does: the screen lets go of it first.
    actions: createTicketActions({ ...quietCtx, lendTerminal: (use) => ctx.lendTerminal(use, screen) }, lookups),
    signal: AbortSignal.any([ctx.signal, closing.signal]),
    editor: (editing) => ctx.lendTerminal(() => ctx.prompter.editor(editing), screen),
    page: (text) => pageInTriage(ctx, text, screen),
    suspend: () => ctx.suspend(suspended),
    templateNames: () => templateNames(ctx),
    fillTemplate: async (name, ticket) => {
      const template = await readTemplate(ctx, name);
      for (const line of frontMatterWarnings(template)) frontMatterWarned.add(line);
      return fillForTicket(quietCtx, template, readTicket(ticket));
    },
    renderDetail: (ticket, width) => renderTicketDetail(ticket, { lookups, now: ctx.now(), color, width }),
    renderPane: (ticket, width) => renderTicketDetail(ticket, { lookups, now: ctx.now(), color, width, descriptionFirst: true }),
  });
  const triageLogin = { shownProfile: profileToName(ctx), globals: ctx.globals, env: ctx.env };
  const program = startProgram(start(options.view, screenSize(), { intervalMs: options.intervalMs, login: triageLogin }), runEffect);

  // Ctrl-C is a key on the screen (the terminal is raw); a SIGTERM (or a SIGINT sent by kill)
  // closes it the same way.
  const onSignal = () => program.dispatch({ kind: 'signalled' });
  ctx.signal.addEventListener('abort', onSignal, { once: true });
  const stopWatching = watchTerminalSize(stdout, screenSize, ({ columns, rows }) => program.dispatch({ kind: 'resized', columns, rows }));
  mount();
  let ending: Ending;
  try {
    ending = await program.finished;
    // Closed by the Ctrl-C key: the run's first SIGINT, so that the next Ctrl-C gives up what is being sent.
    if (ending === 'interrupted') ctx.interruptedByKey();
  } finally {
    closing.abort();
    stopWatching();
    ctx.signal.removeEventListener('abort', onSignal);
    await unmount();
    stdout.write(MAIN_SCREEN);
    await reportLeft(ctx, program, ctx.signal.reason);
    // Kept for the next r or s until now: on the shell's screen, where it is read after the run.
    for (const line of await saveDrafts(ctx.config, ctx, program.snapshot())) await ctx.output.warning(line);
    for (const line of frontMatterWarned) await ctx.output.warning(line);
  }
  // Closed by Ctrl-C or a signal: the run ends as any interrupted command does, 130 (or 143 for SIGTERM).
  if (ending === 'interrupted' || ctx.signal.aborted) throw new InterruptedError();
}

/**
 * Left with an action being sent (q, Ctrl-C, a signal): it is waited for, as any interrupted
 * command waits for its requests in flight, and what it did is said on the shell's screen, with
 * the keys that waited their turn, not done. Left by `stopSignal` (Ctrl-C, a signal), the same
 * again gives up (docs/cli.md section 8): the one notice says so. Left by q, nothing has
 * interrupted the run yet: a first Ctrl-C does (and waits, saying so), a second gives up.
 */
async function reportLeft(ctx: Context, program: TriageProgram, stopSignal: unknown): Promise<void> {
  const running = program.snapshot().running;
  if (running !== undefined) {
    const again = !isStopSignal(stopSignal)
      ? '; press Ctrl-C twice to give up'
      : stopSignal === 'SIGINT'
        ? '; press Ctrl-C again to give up'
        : `; another ${stopSignal} gives up`;
    await ctx.output.note(`waiting for what was being sent: ${running.verb} #${running.id}…${again}\n`);
    await new Promise<void>((resolve) => {
      const stop = program.subscribe(() => {
        if (program.snapshot().running !== undefined) return;
        stop();
        resolve();
      });
    });
  }
  const { left } = program.snapshot();
  if (left === undefined) return;
  for (const outcome of left.outcomes) await ctx.output.note(`${outcome}\n`);
  if (left.notDone.length > 0) await ctx.output.note(`not done (typed while an action was being sent): ${left.notDone.join(', ')}\n`);
}
