// One prompter interface for every command. The real one wraps @inquirer/prompts
// and writes to stderr; tests use a scripted fake (test/helpers/prompter.ts).

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  /**
   * A line. `textToSend`: it is a text a request sends (a description, notes): closed unanswered (Ctrl-C, Esc, a
   * signal), the error carries what was typed (typedTextOf), for the command to keep as a draft.
   */
  input(options: { message: string; default?: string; validate?: (value: string) => true | string; textToSend?: boolean }): Promise<string>;
  password(options: { message: string; validate?: (value: string) => true | string }): Promise<string>;
  confirm(options: { message: string; default?: boolean }): Promise<boolean>;
  select<T>(options: { message: string; choices: readonly Choice<T>[]; default?: T }): Promise<T>;
  /** Type-to-filter over a long list; `default`, Enter's choice before anything is typed, is where the list starts. */
  search<T>(options: { message: string; choices: readonly Choice<T>[]; default?: T }): Promise<T>;
  /** Opens $EDITOR (as `git commit` does) and returns the text. */
  editor(options: { message: string; default?: string }): Promise<string>;
}
