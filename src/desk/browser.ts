// A ticket's page in the browser (tkt browse, tkt show --web, triage w), as gh browse does:
// $BROWSER, else the platform's opener (xdg-open, open, start); with no way to open, the URL is
// printed. $BROWSER may be a text browser (w3m, lynx on a headless box), which needs the
// terminal: at one it runs in the foreground, lent the terminal, and tkt waits for it. The
// opener (and $BROWSER without a terminal) is started on its own: tkt neither waits for it nor
// holds the terminal (README: Open in the browser).
import { childEnv } from '../util/child-env.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { OperationError, UsageError } from '../errors.js';
import { SHELL_COULD_NOT_RUN, commandNamed, isExecutableFile, isUnquotedPath, unquotedVariableHint } from '../util/shell-status.js';
import { expansionWords } from './alias-words.js';
import { userSettings, WEB_URL_ID } from '../config/settings.js';
import type { Context } from '../context/context.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The ticket's page from the web-url setting; exit 2 saying how to set it when it is not. */
export function ticketWebUrl(ctx: Pick<Context, 'config' | 'env' | 'globals'>, id: number): string {
  const template = userSettings(ctx).webUrl;
  if (template === undefined) {
    throw new UsageError('no web-url setting: tkt does not know where tickets are on the web', {
      hint: `tkt config set web-url 'https://helpdesk.example.com/Ticket/Details/${WEB_URL_ID}' (with --profile NAME for one profile)`,
    });
  }
  return template.replaceAll(WEB_URL_ID, String(id));
}

/** $BROWSER, the user's own choice of a browser (a command line), when it is set. */
function chosenBrowser(env: Env): string | undefined {
  return env.BROWSER?.trim() || undefined;
}

/** The program and arguments that open `url`: $BROWSER (a command line, through sh) or the platform's opener. */
function opener(url: string, env: Env): [string, string[]] {
  const browser = chosenBrowser(env);
  if (browser) return process.platform === 'win32' ? ['cmd', ['/c', `${browser} "${url}"`]] : ['sh', ['-c', `${browser} "$@"`, browser, url]];
  if (process.platform === 'darwin') return ['open', [url]];
  // start's first quoted argument is the window title.
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/**
 * The program $BROWSER names when it is not there: its first word, neither an executable file
 * (a path) nor one on PATH. sh would start and fail with 127, which tkt, not waiting for the
 * browser, would never see. Not checked on Windows, where cmd's lookup has rules of its own.
 */
export function missingBrowser(env: Env): string | undefined {
  const browser = chosenBrowser(env);
  if (browser === undefined || process.platform === 'win32') return undefined;
  // Split as sh splits it, so that a quoted path with spaces is one word; a quote left open is no program.
  const words = expansionWords(browser);
  if (!Array.isArray(words)) return browser;
  // Past any VAR=value words sh reads before the program.
  const program = words.find((word) => !/^[A-Za-z_]\w*=/.test(word));
  if (!program) return undefined;
  const found = program.includes('/')
    ? isExecutableFile(program)
    : (env.PATH ?? '').split(':').some((dir) => dir !== '' && isExecutableFile(`${dir}/${program}`));
  return found ? undefined : program;
}

/**
 * How to quote $BROWSER when it is a program's path with spaces, given unquoted (missingBrowser
 * then names its first word, which sh would look for): quoting it is the fix.
 */
export function unquotedBrowserHint(env: Env): string | undefined {
  const browser = chosenBrowser(env);
  return browser !== undefined && isUnquotedPath(browser) ? unquotedVariableHint('BROWSER', browser) : undefined;
}

/** Runs $BROWSER (`browser`, as `command` and `args`) on the terminal until it exits; exit 1 when it fails. */
async function runAtTerminal(browser: string, command: string, args: string[], env: Env): Promise<void> {
  const child = spawn(command, args, { stdio: 'inherit', env: childEnv(env) });
  const [code, signal] = (await once(child, 'exit').catch((error: unknown) => {
    throw new OperationError(`could not start the browser ${commandNamed(browser)} ($BROWSER)`, { cause: error });
  })) as [number | null, NodeJS.Signals | null];
  if (code === 0) return;
  const unstarted = process.platform === 'win32' ? undefined : SHELL_COULD_NOT_RUN[code ?? -1];
  if (unstarted !== undefined) throw new OperationError(`could not start the browser ${commandNamed(browser)} ($BROWSER): ${unstarted}`);
  throw new OperationError(`the browser ${commandNamed(browser)} ($BROWSER) failed (${signal ?? `exit code ${code}`})`);
}

/**
 * Opens `url`; false when there is no program to start. $BROWSER at a terminal (stdin and stdout)
 * runs in the foreground with the terminal lent to it (Context.lendTerminal: tkt reads nothing
 * meanwhile) and is waited for, as gh does: a text browser needs the terminal, and its failure is
 * an error (exit 1). Otherwise the browser is started on its own and not waited for.
 * `announce` says that it opens: once started, or, at the terminal, just before.
 */
export async function openInBrowser(
  url: string,
  ctx: Pick<Context, 'env' | 'io' | 'lendTerminal'>,
  announce: () => Promise<void> = async () => undefined,
): Promise<boolean> {
  if (missingBrowser(ctx.env) !== undefined) return false;
  const [command, args] = opener(url, ctx.env);
  const browser = chosenBrowser(ctx.env);
  if (browser !== undefined && ctx.io.stdinIsTTY && ctx.io.stdoutIsTTY) {
    await ctx.lendTerminal(async () => {
      await announce();
      await runAtTerminal(browser, command, args, ctx.env);
    });
    return true;
  }
  const child = spawn(command, args, { detached: true, stdio: 'ignore', env: childEnv(ctx.env) });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  child.unref();
  if (started) await announce();
  return started;
}

/** Opens the ticket's page, or prints its URL with `noBrowser` or when nothing can open it. */
export async function browseTicket(ctx: Context, id: number, noBrowser: boolean): Promise<void> {
  const url = ticketWebUrl(ctx, id);
  const missing = noBrowser ? undefined : missingBrowser(ctx.env);
  if (missing !== undefined) {
    const quoteIt = unquotedBrowserHint(ctx.env);
    const hint = quoteIt === undefined ? '' : `hint: ${quoteIt}\n`;
    await ctx.output.warning(`$BROWSER names ${missing}, which is no program here: the URL is printed instead\n${hint}`);
  }
  const opened = !noBrowser && (await openInBrowser(url, ctx, () => ctx.output.note(`Opening ${url} in your browser.\n`)));
  await ctx.output.document({ id, url, opened }, { human: () => (opened ? '' : `${url}\n`), quiet: () => `${url}\n` });
}
