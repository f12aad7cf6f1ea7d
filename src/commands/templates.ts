// tkt templates list|show|edit: the reply templates of src/desk/templates.ts.
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { whyNothingIsAsked } from '../context/nothing-asked.js';
import type { TemplateLine } from '../desk/templates.js';
import { UsageError } from '../errors.js';

export type TemplatesOptions = { action: 'list' } | { action: 'show'; name: string } | { action: 'edit'; name: string };

const HELP = `
Templates are Markdown files in the config folder's templates/ folder (NAME.md). A front
matter may give the reply's subject; the text may hold {{ticket.id}}, {{ticket.title}},
{{requester.name}} and {{me.name}}, filled for each ticket by "tkt reply --template" and
"tkt resolve --template". <!-- comments --> are never sent. A "{{" or "}}" outside a
placeholder (a brace missing) stops the command before anything is sent; there is no escape.
Front-matter keys ignore case (Subject:); any key but subject is warned about.

Examples:
  $ tkt templates edit printer-fixed
  $ tkt templates list
  $ tkt templates show printer-fixed
  $ tkt reply 42 --template printer-fixed
  $ tkt resolve 43 44 --template printer-fixed`;

export function register(program: Program, host: CommandHost): void {
  const templates = program.command('templates').description('List, show and edit reply templates').addHelpText('after', HELP);
  const list = templates.command('list').description('The templates, each with its subject');
  host.action(list, (_args, _opts, ctx) => run({ action: 'list' }, ctx));
  const show = templates.command('show').description('Print a template as it is saved').argument('<name>', 'the template');
  host.action(show, ([name], _opts, ctx) => run({ action: 'show', name }, ctx));
  const edit = templates
    .command('edit')
    .description('Edit a template in $EDITOR, creating it from a commented example')
    .argument('<name>', 'the template (ASCII letters, digits, ".", "-", "_")');
  host.action(edit, ([name], _opts, ctx) => run({ action: 'edit', name }, ctx));
}

export async function run(options: TemplatesOptions, ctx: Context): Promise<void> {
  const templates = await import('../desk/templates.js');
  switch (options.action) {
    case 'list': {
      // Said rather than silently missing from the list: a file made by hand under a name tkt does not take, or not in UTF-8.
      const { templates: all, warnings } = await templates.listedTemplates(ctx);
      for (const warning of warnings) await ctx.output.warning(warning);
      const kept = templates.templatesDirIfAny(ctx);
      // A key mistyped (`Subjet:`) would otherwise show as a template without a subject.
      for (const template of all) await templates.warnAboutFrontMatter(ctx, template);
      // A table at a terminal, tab-separated lines piped, names with -q, the templates with --json.
      const printer = await ctx.output.records<TemplateLine>({
        prepare: (item) => item as TemplateLine,
        columns: templates.TEMPLATE_COLUMNS,
        defaultColumns: () => templates.TEMPLATE_COLUMNS.map((column) => column.name),
        quiet: (template) => template.name,
        none: `no templates yet: create one with "tkt templates edit NAME"${kept === undefined ? '' : ` (they are kept in ${kept})`}`,
      });
      await printer.page(all.map(({ name, subject, file }): TemplateLine => ({ name, subject: subject ?? null, file })));
      return printer.end();
    }
    case 'show': {
      const template = await templates.readTemplate(ctx, options.name, { toShow: true });
      await templates.warnAboutFrontMatter(ctx, template);
      const { name, subject, body, file } = template;
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(file, 'utf8');
      return ctx.output.document({ name, subject: subject ?? null, body, file }, { human: () => (text.endsWith('\n') ? text : `${text}\n`) });
    }
    case 'edit': {
      // `printer-fixed.md` is the file's name: the template is printer-fixed, not printer-fixed.md.md.
      const name = templates.templateName(options.name);
      // Opening the editor is asking, as reply's message is: never without a terminal, under CI or with --no-input.
      const file = templates.templateFile(ctx, name);
      if (!ctx.io.canPrompt) {
        const { reason, toBeAsked } = whyNothingIsAsked(ctx);
        throw new UsageError(`cannot open the editor on template ${name} (${reason})`, { hint: `${toBeAsked}, or write ${file} yourself` });
      }
      const [{ editFile }, { editorChoice }] = await Promise.all([import('../prompts/editor.js'), import('../config/settings.js')]);
      const editor = editorChoice(ctx);
      const { created, changed } = await templates.editTemplate(ctx, name, (file, afterFailure) =>
        ctx.lendTerminal(() => editFile(editor, file, ctx.env, afterFailure)),
      );
      const outcome = created ? `Created template ${name}` : changed ? `Saved template ${name}` : `template ${name} unchanged`;
      return ctx.output.document({ name, file, created, changed }, { human: () => `${outcome}: ${file}\n` });
    }
  }
}
