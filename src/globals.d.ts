// Replaced at build time by esbuild (scripts/build.mjs) and vitest (vitest.config.ts).
declare const TKT_VERSION: string;
// Output of the commands that need no command code (help, version), keyed by their arguments
// joined with NUL, and which text is the program's help (without the user's aliases): replaced by
// scripts/build-start.mjs, which runs the real CLI for each. For a user's alias's help: the
// words `tkt help WORD` never takes for an alias beyond those it has an answer for (hidden
// commands, help topics), and the commands whose alias's help may be a subcommand's. Every
// command's name and alias, which no alias of the user's can stand for (src/commands/names.ts).
declare const TKT_PREPARED_OUTPUT: {
  texts: string[];
  answers: Record<string, [text: number, exitCode: number]>;
  programHelp: number;
  notAliases: string[];
  withSubcommands: string[];
  builtins: string[];
};
// Every command's name and alias (TKT_PREPARED_OUTPUT.builtins), separated by spaces, for
// dist/complete.cjs (src/completion/entry.ts), which holds no command code nor the prepared
// output: a string, which esbuild puts where it is used, as it does not an array.
declare const TKT_COMMAND_NAMES: string;
