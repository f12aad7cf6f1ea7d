// The real Prompter: @inquirer/prompts drawing on stderr (stdout stays clean for data),
// loaded on first use so `tkt --help` never pays for it.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { editText } from './editor.js';
import type { Choice, Prompter } from './types.js';

export interface PrompterIO {
  stdin: Readable;
  stderr: Writable;
  /** Where $VISUAL / $EDITOR are read; the process environment when left out. */
  env?: Readonly<Record<string, string | undefined>>;
}

type Prompts = typeof import('@inquirer/prompts');

// Messages may quote a ticket title and choice names are lookup names: server text, shown
// escaped like all server text.
function displayChoices<T>(choices: readonly Choice<T>[]) {
  return choices.map((choice) => ({
    name: sanitizeInline(choice.name),
    value: choice.value,
    ...(choice.description === undefined ? {} : { description: sanitizeInline(choice.description) }),
  }));
}

/** Case-insensitive match of every word of `term` in the choice's name or description. */
export function matchesSearch(choice: Choice<unknown>, term: string | undefined): boolean {
  const haystack = `${choice.name} ${choice.description ?? ''}`.toLowerCase();
  return (term ?? '').toLowerCase().split(/\s+/).every((word) => haystack.includes(word));
}

export function createInquirerPrompter(io: PrompterIO): Prompter {
  const context = { input: io.stdin, output: io.stderr };

  async function ask<T>(show: (prompts: Prompts) => Promise<T>): Promise<T> {
    const prompts = await import('@inquirer/prompts');
    try {
      return await show(prompts);
    } catch (error) {
      // Ctrl-C inside a prompt: inquirer rejects with ExitPromptError (matched by name,
      // the class lives in @inquirer/core which is not our direct dependency).
      if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError();
      throw error;
    }
  }

  return {
    input: ({ message, default: initial, validate }) =>
      ask(({ input }) => input({ message: sanitizeInline(message), ...(initial === undefined ? {} : { default: initial }), ...(validate ? { validate } : {}) }, context)),
    password: ({ message }) => ask(({ password }) => password({ message: sanitizeInline(message), mask: true }, context)),
    confirm: ({ message, default: initial }) =>
      ask(({ confirm }) => confirm({ message: sanitizeInline(message), ...(initial === undefined ? {} : { default: initial }) }, context)),
    select: ({ message, choices, default: initial }) =>
      ask(({ select }) => select({ message: sanitizeInline(message), choices: displayChoices(choices), ...(initial === undefined ? {} : { default: initial }) }, context)),
    search: ({ message, choices }) => {
      const shown = displayChoices(choices);
      return ask(({ search }) =>
        search({ message: sanitizeInline(message), source: (term: string | undefined) => shown.filter((choice) => matchesSearch(choice, term)) }, context),
      );
    },
    editor: async ({ message, default: initial }) => {
      io.stderr.write(`${sanitizeInline(message)} (waiting for your editor to close the file...)\n`);
      return editText({ message, env: io.env ?? process.env, ...(initial === undefined ? {} : { default: initial }) });
    },
  };
}
