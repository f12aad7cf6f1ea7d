// The real Prompter: @inquirer/prompts drawing on stderr (stdout stays clean for data),
// loaded on first use so `tkt --help` never pays for it.
import type { Readable, Writable } from 'node:stream';
import type { EditorChoice } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { CancelledError, InterruptedError, OperationError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { truncate } from '../output/width.js';
import { createStyle, type Style } from '../output/style.js';
import { editText } from './editor.js';
import { createLinePrompts } from './line-prompts.js';
import { createTypeAhead, type Suspend } from './typeahead.js';
import type { Choice, Prompter } from '../context/prompter.js';
import type * as InquirerPrompts from '@inquirer/prompts';
import { foldForMatch, rankTyped } from '../util/fold.js';

export interface PrompterIO {
  stdin: Readable;
  stderr: Writable;
  /** Where $VISUAL / $EDITOR are read: the run's environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** IO.color; prompts are drawn without colour unless told. */
  color?: boolean;
  /**
   * The editor to use and its hint (the `editor` setting, $VISUAL/$EDITOR first); else $VISUAL,
   * $EDITOR, vi. Read when an editor opens: `tkt login` asks at a terminal for a profile that has
   * no settings yet because it does not exist yet.
   */
  editor?: () => EditorChoice;
  /** The run's stop signal (SIGTERM, or Ctrl-C outside the prompt): an open prompt closes. */
  signal?: AbortSignal;
  /** Ctrl-Z at a prompt: the run suspended to the shell (Context.suspend); without it, Ctrl-Z does nothing. */
  suspend?: Suspend;
  /** Context.lendTerminal: the editor gets the terminal as every program tkt starts does. */
  lendTerminal?: Context['lendTerminal'];
  /** The terminal's height, read as each picker opens. */
  rows?: () => number;
  /**
   * IO.cursorControl: stderr can go back over a line (the editor's "waiting" line is erased after
   * it); false at a dumb terminal, where questions are asked line by line (line-prompts.ts).
   */
  cursorControl?: boolean;
  /** IO.screenReader: questions asked line by line, as at a dumb terminal. */
  screenReader?: boolean;
  /** The terminal's width: the "waiting" line is kept to one row, which \r can go back to. */
  columns?: () => number;
}

type Prompts = typeof InquirerPrompts;

/** The choices a picker shows at once, as inquirer does. */
const PAGE_SIZE = 7;
/** The lines of a picker besides its choices: the question, a blank line, a choice's description, the keys. */
const PICKER_LINES = 4;

// Messages may quote a ticket title and choice names are lookup names: server text, shown
// escaped like all server text.
function displayChoices<T>(choices: readonly Choice<T>[]) {
  return choices.map((choice) => ({
    name: sanitizeInline(choice.name),
    value: choice.value,
    ...(choice.description === undefined ? {} : { description: sanitizeInline(choice.description) }),
  }));
}

// Inquirer's default theme colours unconditionally (node:util styleText on Node 20), so
// every colour it would use is given here from our own Style, which follows IO.color.
function promptThemes(style: Style) {
  const base = {
    prefix: { idle: style.blue('?'), done: style.green('✔') },
    spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'].map(style.yellow) },
    style: {
      answer: style.cyan,
      message: style.bold,
      error: (text: string) => style.red(`> ${text}`),
      defaultAnswer: (text: string) => style.dim(`(${text})`),
      help: style.dim,
      highlight: style.cyan,
      key: (text: string) => style.cyan(style.bold(`<${text}>`)),
    },
  };
  const keysHelpTip = (keys: [key: string, action: string][]) => keys.map(([key, action]) => `${style.bold(key)} ${style.dim(action)}`).join(style.dim(' • '));
  return {
    base,
    password: { ...base, style: { ...base.style, keysHelpTip } },
    select: { ...base, style: { ...base.style, keysHelpTip, description: style.cyan, disabled: style.dim } },
    search: {
      ...base,
      style: { ...base.style, keysHelpTip, description: style.cyan, searchTerm: style.cyan, disabled: (text: string) => style.dim(`- ${text}`) },
    },
  };
}

/** Every word of `term` in the choice's name or description, case and accents aside. */
export function matchesSearch(choice: { name: string; description?: string | undefined }, term: string | undefined): boolean {
  const haystack = foldForMatch(`${choice.name} ${choice.description ?? ''}`);
  return foldForMatch(term ?? '')
    .split(/\s+/)
    .every((word) => haystack.includes(word));
}

/**
 * The indices of the choices `term` matches (matchesSearch), the best first as every picker
 * orders them (rankTyped, as triage's): the name as typed, then names that start with it, then names with a word
 * that does, then the rest; a choice matched only word by word, or by its description, after.
 */
export function searchMatches(choices: readonly { name: string; description?: string | undefined }[], term: string | undefined): number[] {
  const matching = choices.flatMap((choice, index) => (matchesSearch(choice, term) ? [index] : []));
  const ranked = rankTyped(matching, (index) => choices[index]!.name, (term ?? '').trim());
  const first = new Set(ranked);
  return [...ranked, ...matching.filter((index) => !first.has(index))];
}

export function createInquirerPrompter(io: PrompterIO): Prompter {
  const typeAhead = createTypeAhead(io.stdin, io.suspend);
  const themes = promptThemes(createStyle(io.color ?? false));
  // Fewer choices on a terminal too short for the whole picker: drawn again taller than the
  // screen (on each move), it would leave a copy of its top in the scrollback every time.
  const pageSize = () => Math.max(1, Math.min(PAGE_SIZE, (io.rows?.() ?? Infinity) - PICKER_LINES));

  /** What a prompt is shown with: its input and output, and what closes it. */
  function promptContext(interrupted: AbortSignal) {
    const signal = io.signal === undefined ? interrupted : AbortSignal.any([io.signal, interrupted]);
    return {
      input: typeAhead.input,
      output: io.stderr,
      signal,
      // Read by inquirer as the prompt closes. Answered, it stays as its one line ("✔ Site
      // Head Office"); interrupted (Ctrl-C, a stop signal) or cancelled (Esc), it is erased, choices
      // and all, as the line of a shell is: inquirer alone would leave its last drawing on the screen.
      get clearPromptOnDone() {
        return signal.aborted;
      },
    };
  }

  /**
   * `show` opens its prompt at once (loaded before): keys typed ahead are given as soon as it is
   * called. `typed`: what was typed at it so far, carried by the error when it is closed unanswered.
   */
  async function ask<T>(show: (prompts: Prompts, context: ReturnType<typeof promptContext>) => Promise<T>, typed?: () => string): Promise<T> {
    const prompts = await import('@inquirer/prompts');
    try {
      return await typeAhead.during((interrupted) => show(prompts, promptContext(interrupted)));
    } catch (error) {
      // Ctrl-C, Esc or a stop signal closes the prompt with AbortPromptError; inquirer's own
      // ExitPromptError stays for a SIGINT it sees itself (both matched by name: the classes
      // live in @inquirer/core, which is not our direct dependency).
      if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
        const text = typed?.();
        const kept = text === undefined || text.trim() === '' ? undefined : text;
        if (error.cause instanceof CancelledError) throw new CancelledError(kept);
        // Closed by Ctrl-D (typeahead.ts): declined, not interrupted.
        if (error.cause instanceof OperationError) throw error.cause;
        throw new InterruptedError(undefined, { typed: kept });
      }
      throw error;
    }
  }

  const editor: Prompter['editor'] = async ({ message, default: initial }) => {
    // As git does: at a terminal that can, the line is erased once the editor is done, so that
    // what follows (✓ replied) is not under a stale "waiting". It is ended at once, so what the
    // editor or its shell says (not found, a crash) starts a line of its own; a failed editor
    // leaves it there.
    const erase = io.cursorControl === true;
    const suffix = ' (waiting for your editor to close the file...)';
    let waiting = `${sanitizeInline(message)}${suffix}`;
    if (erase && io.columns !== undefined) {
      // One row, the suffix kept whole where it fits: a wrapped line would leave its first row.
      const width = Math.max(1, io.columns() - 1);
      waiting = truncate(`${truncate(sanitizeInline(message), Math.max(1, width - suffix.length))}${suffix}`, width);
    }
    io.stderr.write(`${waiting}\n`);
    const edit = () => editText({ message, default: initial, env: io.env, ...(io.editor === undefined ? {} : { editor: io.editor() }) });
    const text = io.lendTerminal === undefined ? await edit() : await io.lendTerminal(edit);
    // Back up to the line and erase it.
    if (erase) io.stderr.write('\x1b[A\r\x1b[K');
    return text;
  };

  // A dumb terminal (IO.cursorControl false) would show inquirer's redrawing as text, and a screen
  // reader read it again whole at each key: questions answered line by line there.
  if (io.cursorControl === false || io.screenReader === true) {
    const lines = createLinePrompts(typeAhead, io, searchMatches);
    return {
      input: (options) => lines.input({ ...options, message: sanitizeInline(options.message) }),
      password: (options) => lines.password({ ...options, message: sanitizeInline(options.message) }),
      confirm: (options) => lines.confirm({ ...options, message: sanitizeInline(options.message) }),
      select: (options) => lines.select({ ...options, message: sanitizeInline(options.message), choices: displayChoices(options.choices) }),
      search: (options) => lines.search({ ...options, message: sanitizeInline(options.message), choices: displayChoices(options.choices) }),
      editor,
    };
  }

  return {
    input: ({ message, default: initial, validate, textToSend }) => {
      // The line as typed, read as inquirer draws it (which it does at each key), for a text to send.
      let typed = '';
      const transformer = (value: string, { isFinal }: { isFinal: boolean }) => {
        typed = value;
        return isFinal ? themes.base.style.answer(value) : value;
      };
      return ask(
        ({ input }, context) =>
          input({ message: sanitizeInline(message), default: initial, validate, theme: themes.base, ...(textToSend === true ? { transformer } : {}) }, context),
        textToSend === true ? () => typed : undefined,
      );
    },
    password: ({ message, validate }) =>
      ask(({ password }, context) => password({ message: sanitizeInline(message), mask: true, validate, theme: themes.password }, context)),
    confirm: ({ message, default: initial }) =>
      ask(({ confirm }, context) => confirm({ message: sanitizeInline(message), default: initial, theme: themes.base }, context)),
    select: ({ message, choices, default: initial }) =>
      ask(({ select }, context) =>
        select({ message: sanitizeInline(message), choices: displayChoices(choices), default: initial, pageSize: pageSize(), theme: themes.select }, context),
      ),
    search: async ({ message, choices, default: initial }) => {
      const { searchList } = await import('./search-list.js');
      const start = choices.findIndex((choice) => choice.value === initial);
      const index = await ask((_, context) =>
        searchList(
          {
            message: sanitizeInline(message),
            choices: displayChoices(choices),
            search: searchMatches,
            pageSize: pageSize(),
            theme: themes.search,
            initial: start,
          },
          context,
        ),
      );
      const chosen = choices[index];
      if (chosen === undefined) throw new Error(`the search answered ${index}, not one of its ${choices.length} choices`);
      return chosen.value;
    },
    editor,
  };
}
