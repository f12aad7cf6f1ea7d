// The bin's first stop for help and version, built to dist/start.cjs (CommonJS: Node starts it
// faster than an ES module). It answers without loading commander or a single command
// definition: help and version text prepared at build time by running the real CLI
// (scripts/build-start.mjs). `__complete`, the completion scripts' call on every Tab press, goes
// from the bin straight to dist/complete.cjs; everything else is left to dist/main.js.
import { aliasHelpHeading, aliasHelpSection, aliasesOnFile } from './desk/alias-help.js';
import { expansionWords } from './desk/alias-words.js';
import { fstatSync, statSync, writeSync } from 'node:fs';
import { helpForWidth, terminalColumns } from './output/reflow.js';
import { writeStdoutSync } from './util/stdout-sync.js';

/**
 * Handles `argv` when it can and returns true; false means: run dist/main.js. The bin calls it
 * only for at most two arguments with a help or version word among them (what every answer here
 * takes): keep it so, or change the bin.
 */
export function start(argv: string[]): boolean {
  const prepared = preparedAnswer(argv);
  if (prepared !== undefined) {
    // The program's help ends with the user's aliases, which only this run can know.
    const aliases = prepared[0] === TKT_PREPARED_OUTPUT.programHelp ? aliasHelpSection(process.env, TKT_PREPARED_OUTPUT.builtins) : '';
    return answer(TKT_PREPARED_OUTPUT.texts[prepared[0]]! + (aliases === '' ? '' : `${aliases}\n`), prepared[1]);
  }
  const help = aliasHelp(argv);
  return help !== undefined && answer(help, 0);
}

function preparedAnswer(argv: readonly string[]): [text: number, exitCode: number] | undefined {
  const key = argv.join('\0');
  return Object.hasOwn(TKT_PREPARED_OUTPUT.answers, key) ? TKT_PREPARED_OUTPUT.answers[key] : undefined;
}

function answer(text: string, exitCode: number): true {
  const failure = writeStdoutSync(helpForWidth(text, stdoutColumns()), () => process.stdout);
  process.exitCode = failure === undefined ? exitCode : 1;
  if (failure === undefined) return true;
  try {
    writeSync(2, `error: ${failure}\n`);
  } catch {
    // stderr gone too (a terminal that hung up): the exit code says it.
  }
  return true;
}

/**
 * The width of stdout when it is a terminal. Help is prepared for 80 columns; a narrower terminal
 * gets it laid out for its width. Neither process.stdout (on a pipe it builds a socket:
 * src/util/stdout-sync.ts) nor node:tty is loaded unless stdout is a character device.
 */
function stdoutColumns(): number | undefined {
  try {
    const stdout = fstatSync(1);
    // /dev/null is a character device too, not worth loading node:tty (and net) for.
    if (!stdout.isCharacterDevice() || (process.platform !== 'win32' && stdout.rdev === statSync('/dev/null').rdev)) return undefined;
    if (!process.getBuiltinModule('node:tty').isatty(1)) return undefined;
  } catch {
    return undefined;
  }
  return terminalColumns(process.stdout);
}

/**
 * The help of a user's alias (`tkt mine --help`, `-h`, `tkt help mine`) as the CLI's help command
 * prints it (src/desk/alias-help-print.ts): what it stands for, then its command's prepared help.
 * Undefined where the CLI must answer: a shell alias's script gets --help as any argument, and
 * an alias of a command with subcommands, of global options first, or that cannot run
 * (src/desk/aliases.ts checkExpansionStart) has an answer that is not prepared.
 */
function aliasHelp(argv: readonly string[]): string | undefined {
  const [first, second] = argv;
  const asked =
    argv.length !== 2
      ? undefined
      : first === 'help'
        ? { name: second!, viaHelp: true }
        : second === '--help' || second === '-h'
          ? { name: first!, viaHelp: false }
          : undefined;
  // A word that starts with "-" is an option to commander, whatever a settings file holds.
  if (
    asked === undefined ||
    asked.name.startsWith('-') ||
    preparedAnswer(['help', asked.name]) !== undefined ||
    TKT_PREPARED_OUTPUT.notAliases.includes(asked.name)
  )
    return undefined;
  const aliases = aliasesOnFile(process.env, TKT_PREPARED_OUTPUT.builtins);
  const expansion = Object.hasOwn(aliases, asked.name) ? aliases[asked.name]! : undefined;
  if (expansion === undefined) return undefined;
  if (expansion.startsWith('!')) return asked.viaHelp ? aliasHelpHeading(asked.name, expansion) : undefined;
  const words = expansionWords(expansion);
  const command = Array.isArray(words) ? words[0] : undefined;
  const help = command === undefined || TKT_PREPARED_OUTPUT.withSubcommands.includes(command) ? undefined : preparedAnswer([command, '--help']);
  return help === undefined ? undefined : aliasHelpHeading(asked.name, expansion) + TKT_PREPARED_OUTPUT.texts[help[0]]!;
}
