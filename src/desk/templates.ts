// Reply templates (tkt reply --template, tkt resolve --template, tkt templates): Markdown files
// in the config folder's templates/, an optional front matter giving the subject, placeholders
// filled from the ticket and the user (README: Reply templates). A placeholder tkt does not know,
// one the ticket has no value for, or a "{{"/"}}" that is no placeholder (a brace missing) stops
// the command (exit 2) before anything is sent.
// node:fs's promises load on first use, for writing a template: a Tab press reads the templates
// through node:fs's callbacks only (util/fs-promises.ts says what loading them costs).
import { promises as fsPromises } from 'node:fs';
import { join } from 'node:path';
import { OperationError, UsageError } from '../errors.js';
import { forEachAtMost } from '../util/at-most.js';
import { nonFolderOnPath } from '../util/non-folder.js';
import { lineFeeds } from '../util/text-read.js';
import { MAX_TEXT_INPUT_BYTES, NotTextError, refuseBeyondLimit, textOfFile } from '../util/text-decode.js';
import { readFolder, readWholeFile, statPath } from '../util/fs-promises.js';
import type { Context } from '../context/context.js';
import type { ConfigReader } from '../config/types.js';
import type { Ticket } from '../model/ticket.js';
import type { RecordColumn } from '../output/types.js';
import type { Session } from '../config/types.js';
import { closestWord } from '../util/closest.js';
import { folderIfAny } from '../config/store-read.js';
import { assertHomeFolder } from '../config/paths.js';

export interface Template {
  name: string;
  file: string;
  /** The front matter's subject, unfilled; undefined without one. */
  subject: string | undefined;
  /** The line of the file the subject key is on (for errors); 0 without one. */
  subjectLine: number;
  /** The text after the front matter, unfilled, comments left in. */
  body: string;
  /** The line of the file the body starts on. */
  bodyLine: number;
  /** The front matter's keys tkt does not know, as written (ignored, warned about). */
  unknownKeys: string[];
  /** The line of a front matter's opening `---` that no `---` line closes (refused when used); 0 when none. */
  unclosedLine: number;
  /** In an unclosed front matter, the first line of dashes other than `---` (`--`): the close meant; 0 when none. */
  dashesLine: number;
}

export interface FilledTemplate {
  subject: string | undefined;
  body: string;
}

/** What a placeholder may name, and where its value comes from. */
export interface TemplateValues {
  ticket: Pick<Ticket, 'id' | 'title' | 'requester'>;
  /** The user running tkt: the name saved at login; none with a token from TKT_TOKEN. */
  me: Pick<Session, 'fullName' | 'tokenSource'>;
}

const PLACEHOLDERS: Readonly<Record<string, (values: TemplateValues) => string | number | undefined>> = {
  'ticket.id': ({ ticket }) => ticket.id,
  'ticket.title': ({ ticket }) => ticket.title,
  'requester.name': ({ ticket }) => ticket.requester,
  'me.name': ({ me }) => me.fullName,
};

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const NAME_RULE = 'ASCII letters, digits, ".", "-" and "_", starting with a letter or digit';
const EXTENSION = '.md';
// NAME.md given is the template NAME (its file's name): a name of its own ending in ".md" could
// never be reached, and its file would list as that other template's twin.
const EXTENSION_RULE = `a template name does not end in "${EXTENSION}" (NAME${EXTENSION} is the template NAME)`;
// HTML comments: Markdown shows none of them, so the example's help lines are never sent.
const COMMENT = /<!--[\s\S]*?-->\n?/g;

/** What reading the templates needs of a run: its config folder (a Tab press only reads it). */
type FolderOf = { config: Pick<ConfigReader, 'dir'> };

export const templatesDir = (ctx: FolderOf) => join(ctx.config.dir, 'templates');

/** The templates folder, or undefined for a user with no config folder: none to read there (README: a run needs none). */
export function templatesDirIfAny(ctx: FolderOf): string | undefined {
  const config = folderIfAny(ctx.config);
  return config === undefined ? undefined : join(config, 'templates');
}

/** Why `name` (a file's, its ".md" taken off) is no template name, as a rule the user reads; undefined when it is one. */
function nameFault(name: string): string | undefined {
  if (!NAME.test(name)) return `a template name is ${NAME_RULE}`;
  return name.endsWith(EXTENSION) ? EXTENSION_RULE : undefined;
}

/**
 * A template's name as typed, wherever one is read (templates show|edit, --template): `printer-fixed.md`,
 * its file's name, is the template printer-fixed. Exit 2 for a name tkt does not take.
 */
export function templateName(typed: string): string {
  const name = typed.endsWith(EXTENSION) ? typed.slice(0, -EXTENSION.length) : typed;
  const fault = nameFault(name);
  if (fault !== undefined) throw new UsageError(`invalid template name ${JSON.stringify(typed)}: ${fault}`);
  return name;
}

/** The file of template NAME (or NAME.md); exit 2 for a name tkt does not take. */
export const templateFile = (ctx: FolderOf, typed: string): string => join(templatesDir(ctx), `${templateName(typed)}${EXTENSION}`);

/** Why `tkt templates list` leaves out the file `entry` of the templates folder. */
const leftOutWarning = (entry: string, why: string) => `left out templates/${entry}: ${why}\n`;

/**
 * The names of the Markdown files of the templates folder that name a template, sorted, and a
 * warning for each left out for its name (`my template.md`, `fixed.md.md`). Hidden files are not
 * templates. Nothing when the folder does not exist (or the config folder is a file).
 */
async function templateFiles(ctx: FolderOf): Promise<{ names: string[]; warnings: string[] }> {
  const dir = templatesDirIfAny(ctx);
  if (dir === undefined) return { names: [], warnings: [] };
  const entries = await readFolder(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [] as string[];
    throw new OperationError(`cannot read ${templatesDir(ctx)}: ${error.message}`);
  });
  const names: string[] = [];
  const warnings: string[] = [];
  for (const entry of entries.filter((entry) => entry.endsWith(EXTENSION) && !entry.startsWith('.')).sort()) {
    const fault = nameFault(entry.slice(0, -EXTENSION.length));
    if (fault === undefined) names.push(entry.slice(0, -EXTENSION.length));
    else warnings.push(leftOutWarning(entry, `${fault}; rename the file to use it`));
  }
  return { names, warnings };
}

/**
 * A template's text, checked as every text input is (README: Text values), the hint converting
 * it into the same file. Read whole through node:fs's callbacks, as a Tab press may (no streams),
 * and only from a regular file: a FIFO's open would wait for a writer.
 */
async function templateText(file: string): Promise<string> {
  const stats = await statPath(file);
  if (!stats.isFile()) throw new NotTextError('not a file');
  refuseBeyondLimit(stats.size, MAX_TEXT_INPUT_BYTES);
  return textOfFile(await readWholeFile(file), file);
}

interface TemplateText {
  name: string;
  file: string;
  text: string;
}

/**
 * The templates tkt can use, read, and a warning for each Markdown file of the folder left out: a
 * name tkt does not take, a text not UTF-8, no file, one it cannot read. The one rule for which
 * templates there are: `templates list` lists these, and a name not found, completion and
 * triage's picker offer them. One bad file hides none of the others.
 */
async function usableTemplates(ctx: FolderOf): Promise<{ usable: TemplateText[]; warnings: string[] }> {
  const { names, warnings } = await templateFiles(ctx);
  const read = await Promise.all(
    names.map(async (name): Promise<TemplateText | string | undefined> => {
      const file = join(templatesDir(ctx), `${name}${EXTENSION}`);
      try {
        return { name, file, text: await templateText(file) };
      } catch (error) {
        const entry = `${name}${EXTENSION}`;
        if (error instanceof NotTextError) return leftOutWarning(entry, error.hint === undefined ? error.message : `${error.message}; ${error.hint}`);
        // Gone since the folder was read: no template any more.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        return leftOutWarning(entry, `cannot read it: ${(error as Error).message}`);
      }
    }),
  );
  return {
    usable: read.filter((template): template is TemplateText => typeof template === 'object'),
    warnings: [...warnings, ...read.filter((warning): warning is string => typeof warning === 'string')],
  };
}

/** The names of the templates tkt can use (usableTemplates). */
export const templateNames = async (ctx: FolderOf): Promise<string[]> => (await usableTemplates(ctx)).usable.map((template) => template.name);

/** The templates `tkt templates list` lists, and the warnings for the files it leaves out (usableTemplates). */
export async function listedTemplates(ctx: FolderOf): Promise<{ templates: Template[]; warnings: string[] }> {
  const { usable, warnings } = await usableTemplates(ctx);
  return { templates: usable.map(({ name, file, text }) => parseTemplate(name, file, text)), warnings };
}

/** A template as `tkt templates list` prints it (--json: its members). */
export interface TemplateLine {
  name: string;
  subject: string | null;
  file: string;
}

export const TEMPLATE_COLUMNS: readonly RecordColumn<TemplateLine>[] = [
  { name: 'name', header: 'NAME', human: (template) => template.name },
  { name: 'subject', header: 'SUBJECT', human: (template) => template.subject, shrink: true },
];

/** The front matter's keys, matched without regard to case (`Subject:` is `subject:`). */
const FRONT_MATTER_KEYS = ['subject'];
const KEY_LINE = /^([A-Za-z][^\s:]*)\s*:(.*)$/;

// Trailing blanks after a delimiter are an editor's, not a different line.
const DELIMITER = /^---[ \t]*$/;
const DASHES = /^-+[ \t]*$/;

/**
 * Front matter `---` ... `---` at the top (blank lines before it allowed), `subject:` its only key
 * read. An opening `---` that no `---` line closes is kept as unclosedLine: sent as the body, the
 * front matter would reach the customer as text.
 */
function parseTemplate(name: string, file: string, text: string): Template {
  const normalized = lineFeeds(text);
  const template: Template = {
    name,
    file,
    subject: undefined,
    subjectLine: 0,
    body: normalized,
    bodyLine: 1,
    unknownKeys: [],
    unclosedLine: 0,
    dashesLine: 0,
  };
  const lines = normalized.split('\n');
  const open = lines.findIndex((line) => line.trim() !== '');
  if (open === -1 || !DELIMITER.test(lines[open]!)) return template;
  const close = lines.findIndex((line, index) => index > open && DELIMITER.test(line));
  if (close === -1) {
    template.unclosedLine = open + 1;
    template.dashesLine = lines.findIndex((line, index) => index > open && DASHES.test(line)) + 1;
    return template;
  }
  template.body = lines.slice(close + 1).join('\n');
  template.bodyLine = close + 2;
  lines.slice(open + 1, close).forEach((line, index) => {
    const [, key, value] = KEY_LINE.exec(line) ?? [];
    if (key === undefined || value === undefined) return;
    if (!FRONT_MATTER_KEYS.includes(key.toLowerCase())) return void template.unknownKeys.push(key);
    if (template.subjectLine !== 0) return;
    const subject = value.trim().replace(/^(["'])(.*)\1$/, '$2');
    template.subjectLine = open + index + 2;
    if (subject !== '') template.subject = subject;
  });
  return template;
}

/** Where the template is, as the warnings and errors name it: `templates/NAME.md`. */
const shownFile = (template: Template) => `templates/${template.name}${EXTENSION}`;

/** Exit 2 for a front matter not closed (README: Reply templates), named with its line and what to fix; undefined for one that is. */
function unclosedFrontMatter(template: Template): UsageError | undefined {
  if (template.unclosedLine === 0) return undefined;
  const dashes = template.dashesLine === 0 ? [] : [`line ${template.dashesLine} is not "---": a front matter ends with a line of three dashes`];
  return new UsageError(`${shownFile(template)} line ${template.unclosedLine}: the front matter opened by "---" is not closed`, {
    details: [...dashes, 'sent as it is, the front matter would reach the customer as text'],
    hint: 'end the front matter with a line "---" after its keys; a template with no front matter starts with something else than "---"',
  });
}

/**
 * The warnings for a template's front matter: one not closed (refused when the template is used),
 * keys tkt does not know (a typo would otherwise go unnoticed); none when all is well.
 */
export function frontMatterWarnings(template: Template): string[] {
  const unclosed = unclosedFrontMatter(template);
  if (unclosed !== undefined) return [`${unclosed.message}: the template cannot be used until it is\n`];
  if (template.unknownKeys.length === 0) return [];
  const keys = template.unknownKeys.map((key) => JSON.stringify(key)).join(', ');
  const known = FRONT_MATTER_KEYS.join(', ');
  return [`${shownFile(template)}: unknown front-matter key${template.unknownKeys.length === 1 ? '' : 's'} ${keys} ignored (known keys: ${known})\n`];
}

/** Says on stderr what frontMatterWarnings finds. */
export async function warnAboutFrontMatter(ctx: Pick<Context, 'output'>, template: Template): Promise<void> {
  for (const line of frontMatterWarnings(template)) await ctx.output.warning(line);
}

/**
 * The template NAME (or NAME.md); exit 2 listing the templates there are when it does not exist,
 * offering the one a typo most likely meant, and for a front matter not closed unless `toShow`
 * (templates show: frontMatterWarnings says it then).
 */
export async function readTemplate(ctx: Pick<Context, 'config'>, typed: string, { toShow = false } = {}): Promise<Template> {
  const name = templateName(typed);
  if (templatesDirIfAny(ctx) === undefined) {
    throw new UsageError(`no template ${JSON.stringify(name)}: templates are kept in the config folder, and this user has none`, {
      hint: 'set TKT_CONFIG_DIR to a folder of yours, and keep templates in its templates/',
    });
  }
  const file = templateFile(ctx, name);
  const text = await templateText(file).catch(async (error: NodeJS.ErrnoException | NotTextError) => {
    // A template is sent as its text: one in Windows-1252 would go out with its accents mangled.
    if (error instanceof NotTextError) throw new UsageError(`template ${name} (${file}) is ${error.message}`, { hint: error.hint, cause: error });
    if (error.code !== 'ENOENT') throw new OperationError(`cannot read ${file}: ${error.message}`);
    // Those a typo may have meant, and those listed: the templates tkt can use, as `templates list` lists them.
    const names = await templateNames(ctx);
    const meant = closestWord(name, names);
    throw new UsageError(`no template ${JSON.stringify(name)} in ${templatesDir(ctx)}`, {
      details: [names.length === 0 ? 'there are no templates yet' : `templates: ${names.join(', ')}`],
      hint: meant === undefined ? `create it with "tkt templates edit ${name}"` : `did you mean ${meant}?`,
    });
  });
  const template = parseTemplate(name, file, text);
  const unclosed = unclosedFrontMatter(template);
  if (unclosed !== undefined && !toShow) throw unclosed;
  return template;
}

const placeholderList = () =>
  `placeholders: ${Object.keys(PLACEHOLDERS)
    .map((known) => `{{${known}}}`)
    .join(', ')}`;

function fillText(template: Template, text: string, values: TemplateValues): string {
  return text.replace(PLACEHOLDER, (_whole, key: string) => {
    if (!Object.hasOwn(PLACEHOLDERS, key)) {
      throw new UsageError(`template ${template.name} has an unknown placeholder {{${key}}}`, { details: [placeholderList()] });
    }
    const value = PLACEHOLDERS[key]!(values);
    if (value === undefined || String(value).trim() === '') {
      const needs = `template ${template.name} needs {{${key}}}`;
      if (key !== 'me.name') throw new UsageError(`${needs}, which ticket #${values.ticket.id} has no value for; nothing was sent`);
      // A token from TKT_TOKEN carries no name (README: Reply templates): logging in again would not change that.
      if (values.me.tokenSource === 'env') {
        throw new UsageError(`${needs}, which has no value with TKT_TOKEN; nothing was sent`, {
          hint: 'only "tkt login" saves your name: unset TKT_TOKEN to use the login, or take {{me.name}} out of the template',
        });
      }
      throw new UsageError(`${needs}, which your login (log in again with "tkt login") has no value for; nothing was sent`);
    }
    return String(value);
  });
}

/**
 * Exit 2 for a "{{" or "}}" left once the placeholders are taken out of `text` (which starts on
 * line `firstLine` of the file): a brace missing or one too many would reach the customer as
 * typed. A lone "{" or "}" is text, as it is in mail. Checked in the template, not in the filled
 * text: a ticket's title may hold "{{".
 */
function refuseStrayBraces(template: Template, text: string, firstLine: number): void {
  const blanked = text.replace(PLACEHOLDER, (whole) => whole.replace(/[^\n]/g, ' '));
  const stray = /\{\{|\}\}/.exec(blanked);
  if (stray === null) return;
  const before = text.slice(0, stray.index);
  const lineStart = before.lastIndexOf('\n') + 1;
  const line = text.slice(lineStart).split('\n')[0]!;
  const at = stray.index - lineStart;
  const opening = stray[0] === '{{';
  // What was meant, as far as it can be told: from "{{" to the "}" that closes it, or from the "{" that opens "}}".
  let [start, end] = [at, at + 2];
  if (opening) {
    const close = line.indexOf('}', end);
    if (close !== -1 && !line.slice(end, close).includes('{')) end = close + 1;
  } else {
    const open = line.lastIndexOf('{', at);
    if (open !== -1 && !line.slice(open, at).includes('}')) start = open;
  }
  start -= /\S*$/.exec(line.slice(0, start))![0].length;
  end += /^\S*/.exec(line.slice(end))![0].length;
  const lineNumber = firstLine + before.split('\n').length - 1;
  throw new UsageError(
    `${shownFile(template)} line ${lineNumber}: ${JSON.stringify(line.slice(start, end))} is not a placeholder (missing ${opening ? '"}}"' : '"{{"'}?)`,
    { details: [placeholderList(), 'a "{{" or "}}" that is not part of one cannot be sent: there is no escape for it'] },
  );
}

/** The subject and body with every placeholder filled and the comments left out. */
export function fillTemplate(template: Template, values: TemplateValues): FilledTemplate {
  if (template.subject !== undefined) refuseStrayBraces(template, template.subject, template.subjectLine);
  // The comments left out, their lines kept, so that the line named is the file's.
  refuseStrayBraces(
    template,
    template.body.replace(COMMENT, (comment) => comment.replace(/[^\n]/g, '')),
    template.bodyLine,
  );
  const body = fillText(template, template.body.replace(COMMENT, ''), values).trim();
  if (body === '') throw new UsageError(`template ${template.name} is empty`, { hint: `write it with "tkt templates edit ${template.name}"` });
  return { subject: template.subject === undefined ? undefined : fillText(template, template.subject, values), body };
}

/** The template filled for one ticket, and the name saved at login for {{me.name}}. */
export async function fillForTicket(ctx: Pick<Context, 'session'>, template: Template, ticket: TemplateValues['ticket']): Promise<FilledTemplate> {
  return fillTemplate(template, { ticket, me: await ctx.session() });
}

/** A text for each ticket of an ID command (resolve's notes), all of them ready before anything is sent. */
export interface TextPerTicket {
  /**
   * Makes every ID's text, at most `concurrency` at once, so that a missing value stops the run
   * (exit 2) before the first change; a ticket that cannot be read fails alone, when its turn comes.
   */
  prepare(ids: readonly number[], concurrency: number): Promise<void>;
  text(id: number): Promise<string>;
}

/** The same text for every ticket. */
export function sameText(text: string): TextPerTicket {
  return { prepare: async () => {}, text: async () => text };
}

/** The template NAME's text filled for each ticket (each read once); a missing template is exit 2 now. */
export async function templateForEachTicket(ctx: Context, name: string): Promise<TextPerTicket> {
  const [template, { lazyTicket }] = await Promise.all([readTemplate(ctx, name), import('../reading/mail.js')]);
  await warnAboutFrontMatter(ctx, template);
  const texts = new Map<number, Promise<string>>();
  const text = (id: number) => {
    let filled = texts.get(id);
    if (filled === undefined) {
      filled = lazyTicket(ctx, id)().then(async (ticket) => (await fillForTicket(ctx, template, ticket)).body);
      texts.set(id, filled);
    }
    return filled;
  };
  return {
    prepare: (ids, concurrency) =>
      forEachAtMost(ids, concurrency, async (id) => {
        await text(id).catch((error: unknown) => {
          if (error instanceof UsageError) throw error;
        });
      }),
    text,
  };
}

/** What `tkt templates edit` starts a new template from. */
export const EXAMPLE_TEMPLATE = `---
subject: "Re: {{ticket.title}}"
---
<!--
A reply template for "tkt reply ID --template NAME" and "tkt resolve ID... --template NAME".
The subject above is used by reply (without it: "Re: <ticket title>"); resolve uses the text below.
Placeholders: {{ticket.id}}, {{ticket.title}}, {{requester.name}}, {{me.name}}.
Comments like this one are never sent.
-->
Hello {{requester.name}},

The issue in ticket #{{ticket.id}} is fixed. Please let us know if it comes back.

{{me.name}}
`;

/**
 * Template NAME after `edit` ran on its file. A new one starts as the example and is not kept
 * when the example comes back unchanged, as git drops a commit message left as it was: exit 1.
 * When the editor fails, `edit` learns from `afterFailure` what is left (a new template left
 * unchanged is dropped then): the file, or no template at all. `changed`: the file is not as
 * it was before the editor opened (a quit without saving leaves it so).
 */
export async function editTemplate(
  ctx: Pick<Context, 'config'>,
  name: string,
  edit: (file: string, afterFailure: () => Promise<string>) => Promise<void>,
): Promise<{ file: string; created: boolean; changed: boolean }> {
  const { file, created } = await templateFileForEdit(ctx, name);
  const before = await fsPromises.readFile(file, 'utf8');
  const dropIfUnchanged = async () => {
    const unchanged = created && (await fsPromises.readFile(file, 'utf8').catch(() => undefined)) === EXAMPLE_TEMPLATE;
    if (unchanged) await fsPromises.rm(file, { force: true });
    return unchanged;
  };
  const afterFailure = async () => {
    if (await dropIfUnchanged()) return `template ${name} was not created`;
    const after = await fsPromises.readFile(file, 'utf8').catch(() => undefined);
    return after === before ? `${file} is as it was` : `${file} keeps what the editor saved`;
  };
  try {
    await edit(file, afterFailure);
  } catch (error) {
    await dropIfUnchanged();
    throw error;
  }
  if (await dropIfUnchanged()) {
    throw new OperationError(`template ${name} not created: the example was left unchanged`, { hint: 'change the text and save it to create the template' });
  }
  return { file, created, changed: (await fsPromises.readFile(file, 'utf8')) !== before };
}

/** The file of template NAME, created from the example when it does not exist yet. */
async function templateFileForEdit(ctx: Pick<Context, 'config'>, name: string): Promise<{ file: string; created: boolean }> {
  const file = templateFile(ctx, name);
  assertHomeFolder(ctx.config.home, file);
  await fsPromises.mkdir(templatesDir(ctx), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    const notFolder = nonFolderOnPath(templatesDir(ctx));
    throw new OperationError(`cannot create ${file}: ${notFolder === undefined ? error.message : `${notFolder} is not a folder`}`);
  });
  const created = await fsPromises.writeFile(file, EXAMPLE_TEMPLATE, { flag: 'wx', mode: 0o600 }).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return false;
      throw new OperationError(`cannot create ${file}: ${error.message}`);
    },
  );
  return { file, created };
}
