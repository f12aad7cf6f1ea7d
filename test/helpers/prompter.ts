// A Prompter that answers from a script, in order, and fails loudly when the command asks
// something the test did not expect: a test that scripts prompts proves they were asked.
import { CancelledError, InterruptedError } from '../../src/errors.js';
import type { Choice, Prompter } from '../../src/context/prompter.js';

export type PromptKind = 'input' | 'password' | 'confirm' | 'select' | 'search' | 'editor';

interface Expectation {
  /** The prompt's message must contain this. */
  message?: string;
}

export type ScriptedAnswer = Expectation &
  (
    | { kind: 'input' | 'password' | 'editor'; value: string }
    /** The editor's text made from the text it opened with; what happens meanwhile (a ticket deleted) happens in `edit`. */
    | { kind: 'editor'; edit: (initial: string | undefined) => string }
    | { kind: 'confirm'; value: boolean }
    /** Enter with nothing typed: the line's or the question's default, which it must have. */
    | { kind: 'input' | 'confirm'; enter: true }
    /** Picks the choice whose name is `name`, or whose value equals `value`. */
    | { kind: 'select' | 'search'; name: string }
    | { kind: 'select' | 'search'; value: unknown }
    /** Enter with nothing typed: the picker's default, which it must have (a line-by-line picker asks again without one). */
    | { kind: 'select' | 'search'; enter: true }
    /**
     * Ctrl-C (`interrupt`) or Esc (`cancel`) at this prompt, whatever its kind when `kind` is left out;
     * `typed`: what was typed at it, which the error carries at a line of text to send (Prompter.input's textToSend).
     */
    | { kind?: PromptKind; interrupt: true; typed?: string }
    | { kind?: PromptKind; cancel: true; typed?: string }
  );

export interface AskedPrompt {
  kind: PromptKind;
  message: string;
  /** Choice names, for select and search. */
  choices?: string[];
  /** What Enter takes, when the prompt has a default: a picker's choice by name, a line's text, a question's answer. */
  default?: string | boolean;
}

export interface ScriptedPrompter extends Prompter {
  readonly asked: AskedPrompt[];
  /** Throws when scripted answers were never asked for. */
  assertDone(): void;
}

export function createScriptedPrompter(answers: readonly ScriptedAnswer[]): ScriptedPrompter {
  const remaining = [...answers];
  const asked: AskedPrompt[] = [];

  function next(prompt: AskedPrompt, textToSend = false): ScriptedAnswer {
    asked.push(prompt);
    const answer = remaining.shift();
    const where = `prompt #${asked.length} (${prompt.kind} "${prompt.message}")`;
    if (answer === undefined) throw new Error(`unexpected ${where}: no scripted answer left`);
    if (answer.kind !== undefined && answer.kind !== prompt.kind) {
      throw new Error(`${where} was answered by a scripted ${answer.kind}`);
    }
    if (answer.message !== undefined && !prompt.message.includes(answer.message)) {
      throw new Error(`${where} does not mention "${answer.message}"`);
    }
    const typed = textToSend && 'typed' in answer ? answer.typed : undefined;
    if ('interrupt' in answer) throw new InterruptedError(undefined, { typed });
    if ('cancel' in answer) throw new CancelledError(typed);
    return answer;
  }

  function scriptedValue<T>(answer: ScriptedAnswer): T {
    if (!('value' in answer)) throw new Error(`scripted ${answer.kind} answer has no value`);
    return answer.value as T;
  }

  /** Enter at a line or a question: its default, which it must have. */
  function entered<T>(kind: PromptKind, message: string, initial: T | undefined): T {
    if (initial === undefined) throw new Error(`${kind} "${message}" has no default for Enter to take`);
    return initial;
  }

  function pick<T>(kind: 'select' | 'search', message: string, choices: readonly Choice<T>[], initial?: T): T {
    const byDefault = choices.find((choice) => initial !== undefined && Object.is(choice.value, initial));
    const answer = next({ kind, message, choices: choices.map((c) => c.name), ...(byDefault === undefined ? {} : { default: byDefault.name }) });
    if ('enter' in answer) return entered(kind, message, byDefault).value;
    const found = choices.find((choice) => ('name' in answer ? choice.name === answer.name : 'value' in answer && Object.is(choice.value, answer.value)));
    if (found === undefined) {
      const wanted = 'name' in answer ? `name "${answer.name}"` : `value ${JSON.stringify(scriptedValue(answer))}`;
      throw new Error(`${kind} "${message}" has no choice with ${wanted}; choices: ${choices.map((c) => c.name).join(', ')}`);
    }
    return found.value;
  }

  return {
    asked,
    async input({ message, default: initial, validate, textToSend }) {
      const answer = next({ kind: 'input', message, ...(initial === undefined ? {} : { default: initial }) }, textToSend);
      const value = 'enter' in answer ? entered('input', message, initial) : scriptedValue<string>(answer);
      const verdict = validate?.(value) ?? true;
      if (verdict !== true) throw new Error(`scripted input "${value}" for "${message}" was rejected: ${verdict}`);
      return value;
    },
    async password({ message, validate }) {
      const value = scriptedValue<string>(next({ kind: 'password', message }));
      const verdict = validate?.(value) ?? true;
      if (verdict !== true) throw new Error(`scripted password for "${message}" was rejected: ${verdict}`);
      return value;
    },
    async confirm({ message, default: initial }) {
      const answer = next({ kind: 'confirm', message, ...(initial === undefined ? {} : { default: initial }) });
      return 'enter' in answer ? entered('confirm', message, initial) : scriptedValue<boolean>(answer);
    },
    async select({ message, choices, default: initial }) {
      return pick('select', message, choices, initial);
    },
    async search({ message, choices, default: initial }) {
      return pick('search', message, choices, initial);
    },
    async editor({ message, default: initial }) {
      const answer = next({ kind: 'editor', message });
      return 'edit' in answer ? answer.edit(initial) : scriptedValue<string>(answer);
    },
    assertDone() {
      if (remaining.length > 0) {
        throw new Error(`${remaining.length} scripted answer(s) never asked for: ${JSON.stringify(remaining)}`);
      }
    },
  };
}
