// A ticket's page in the browser (tkt browse, tkt show --web, triage w), as gh browse does:
// $BROWSER, else the platform's opener (xdg-open, open, start), started on its own so tkt
// neither waits for it nor holds the terminal; with no way to open, the URL is printed.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { UsageError } from '../errors.js';
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

/** The program and arguments that open `url`: $BROWSER (a command line, through sh) or the platform's opener. */
function opener(url: string, env: Env): [string, string[]] {
  const browser = env.BROWSER?.trim();
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
  // Past any VAR=value words sh reads before the program.
  const program = env.BROWSER?.trim()
    .split(/\s+/)
    .find((word) => !/^[A-Za-z_]\w*=/.test(word));
  if (!program || process.platform === 'win32') return undefined;
  const runnable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  const found = program.includes('/') ? runnable(program) : (env.PATH ?? '').split(':').some((dir) => dir !== '' && runnable(`${dir}/${program}`));
  return found ? undefined : program;
}

/** Starts the browser on `url` without waiting for it; false when there is no program to start. */
export async function openInBrowser(url: string, env: Env): Promise<boolean> {
  if (missingBrowser(env) !== undefined) return false;
  const [command, args] = opener(url, env);
  const child = spawn(command, args, { detached: true, stdio: 'ignore', env: { ...env } });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  child.unref();
  return started;
}

/** Opens the ticket's page, or prints its URL with `noBrowser` or when nothing can open it. */
export async function browseTicket(ctx: Context, id: number, noBrowser: boolean): Promise<void> {
  const url = ticketWebUrl(ctx, id);
  const missing = noBrowser ? undefined : missingBrowser(ctx.env);
  if (missing !== undefined) await ctx.output.warning(`$BROWSER names ${missing}, which is no program here: the URL is printed instead\n`);
  const opened = !noBrowser && (await openInBrowser(url, ctx.env));
  await ctx.output.document({ id, url, opened }, { human: () => (opened ? '' : `${url}\n`), quiet: () => `${url}\n` });
  if (opened) await ctx.output.note(`Opening ${url} in your browser.\n`);
}
