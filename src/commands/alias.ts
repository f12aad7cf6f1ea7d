// tkt alias set|list|delete: the aliases of src/desk/aliases.ts.
import { KEEPS_SETTINGS, type CommandHost, type Program } from './host.js';
import { builtinNames } from './names.js';
import { existingProfileName } from '../config/session.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { HELP_TOPICS } from '../output/help-topics.js';
import { sanitizeInline } from '../output/sanitize.js';
import { closestWord } from '../util/closest.js';
import { shellWord } from '../util/shell-word.js';

export type AliasOptions =
  | { action: 'set'; name: string; expansion: string; clobber: boolean; builtins: readonly string[]; topics: readonly string[] }
  | { action: 'list' }
  | { action: 'delete'; name: string };

const HELP = `
An alias stands for the start of a tkt command line: a tkt command (not another alias), then its
options. $1, $2... take its arguments given before any option (or after --), and the others are
appended: "tkt fixed 42 toner --dry-run". A name is ASCII letters, digits, "-" and "_", starting with a letter or digit; an alias
of that name is replaced only with --clobber, as gh's. An expansion starting with ! is a shell command, run by
sh with every argument as $1, $2... ("$@" for all). An alias never shadows a tkt command or help topic. Aliases are kept for every profile; global
options go after the alias ("tkt mine --json").

Examples:
  $ tkt alias set mine 'list --view my-open-tickets'
  $ tkt alias set fixed 'resolve $1 --details "Fixed, please confirm"'
  $ tkt alias set urgent '!tkt list -q --all --priority High | tkt pickup -'
  $ tkt alias list
  $ tkt alias delete urgent`;

export function register(program: Program, host: CommandHost): void {
  const alias = program.command('alias').description('Set, list and delete command aliases').addHelpText('after', HELP);
  const set = alias
    .command('set')
    .description('Save an alias')
    .argument('<name>', 'the alias (ASCII letters, digits, "-", "_"; a letter or digit first)')
    .argument('<expansion>', 'what it stands for')
    .option('--clobber', 'replace the alias of that name')
    // An expansion that starts with an option ('--json list') is an argument, which run refuses
    // saying where the options go, rather than commander's "unknown option".
    .allowUnknownOption();
  host.action(
    set,
    ([name, expansion], opts, ctx) =>
      run({ action: 'set', name, expansion, clobber: opts.clobber === true, builtins: builtinNames(), topics: Object.keys(HELP_TOPICS) }, ctx),
    KEEPS_SETTINGS,
  );
  const list = alias.command('list').description('Every alias and what it stands for');
  host.action(list, (_args, _opts, ctx) => run({ action: 'list' }, ctx), KEEPS_SETTINGS);
  const remove = alias.command('delete').description('Forget an alias').argument('<name>', 'the alias');
  host.action(remove, ([name], _opts, ctx) => run({ action: 'delete', name }, ctx), KEEPS_SETTINGS);
}

export async function run(options: AliasOptions, ctx: Context): Promise<void> {
  const { aliasesObject, brokenAliasFix, checkAlias, hiddenAliasText, readAliases, shellOnlyWord } = await import('../desk/aliases.js');
  // Aliases are for every profile, but a --profile (or TKT_PROFILE) nothing created is a typo here as anywhere.
  existingProfileName(ctx);
  const { aliases, broken, hidden } = readAliases(ctx.config, builtinNames());
  const saved = (name: string) => Object.hasOwn(aliases, name) || Object.hasOwn(broken, name) || Object.hasOwn(hidden, name);
  switch (options.action) {
    case 'set': {
      checkAlias(options.name, options.expansion, { builtins: options.builtins, topics: options.topics, aliases, broken });
      const expansion = options.expansion.trim();
      // As gh's: a working alias is replaced only when asked; one that cannot run (brokenAliasFix) is mended without.
      if (Object.hasOwn(aliases, options.name) && !options.clobber)
        throw new UsageError(`alias ${options.name} already exists: ${sanitizeInline(aliases[options.name]!)}`, {
          hint: `--clobber replaces it: tkt alias set ${options.name} ${sanitizeInline(shellWord(expansion))} --clobber`,
        });
      const replaced = saved(options.name);
      // Added to the aliases as saved when the file is written, not to those read above: a
      // concurrent `tkt alias set` keeps its own.
      await ctx.config.saveSettings((settings) => ({ aliases: { ...aliasesObject(settings.aliases, ctx.config), [options.name]: expansion } }));
      await ctx.output.document(
        { name: options.name, expansion, replaced },
        { human: () => `${replaced ? 'Changed' : 'Added'} alias ${options.name}: ${sanitizeInline(expansion)}\n` },
      );
      const shellish = shellOnlyWord(expansion);
      if (shellish !== undefined)
        await ctx.output.warning(
          `the expansion holds ${JSON.stringify(shellish)}: tkt does not expand it as a shell would; give the full path or value, or make it a shell alias ('!tkt ...')\n`,
        );
      return;
    }
    case 'list': {
      const names = Object.keys(aliases).sort();
      await ctx.output.document(
        names.map((name) => ({ name, expansion: aliases[name] })),
        {
          human: () => names.map((name) => `${name}: ${sanitizeInline(aliases[name]!)}\n`).join(''),
          quiet: () => names.map((name) => `${name}\n`).join(''),
        },
      );
      // As templates list says it, to a person only: stdout stays empty for a script, -q and --json say nothing more.
      if (names.length === 0 && Object.keys(broken).length === 0 && Object.keys(hidden).length === 0 && ctx.output.format === 'human')
        await ctx.output.note(`no aliases yet: create one with "tkt alias set NAME 'COMMAND ...'"\n`);
      // Saved by hand: the aliases that can run are listed all the same.
      for (const name of Object.keys(broken).sort()) {
        await ctx.output.warning(`alias ${sanitizeInline(name)}: ${sanitizeInline(broken[name]!)}: ${sanitizeInline(brokenAliasFix(name))}\n`);
      }
      for (const name of Object.keys(hidden).sort()) await ctx.output.warning(`alias ${name}: ${sanitizeInline(hiddenAliasText(name, hidden[name]))}\n`);
      return;
    }
    case 'delete': {
      if (!saved(options.name)) {
        const known = [...Object.keys(aliases), ...Object.keys(broken), ...Object.keys(hidden)].sort();
        // As a misspelt command or template is offered: the one meant.
        const meant = closestWord(options.name, known);
        throw new UsageError(`no alias ${JSON.stringify(options.name)}`, {
          details: [known.length === 0 ? 'there are no aliases' : `aliases: ${known.join(', ')}`],
          hint: meant === undefined ? undefined : `did you mean ${meant}?`,
        });
      }
      await ctx.config.saveSettings((settings) => {
        const { [options.name]: _removed, ...rest } = aliasesObject(settings.aliases, ctx.config);
        return { aliases: rest };
      });
      return ctx.output.document({ name: options.name }, { human: () => `Deleted alias ${options.name}\n` });
    }
  }
}
