// The zsh completion script, generated from a CompletionSpec.
import { firstArgumentCompletion, type CommandSpec, type CompletionSpec, type OptionSpec, type ValueCompletion } from './spec.js';
import { flagsOf, singleQuoted, oneLine } from './script-text.js';

/** The zsh command that adds a value's candidates: _tkt_names site, compadd -- a b, _files. */
function zshCommand(value: ValueCompletion): string {
  if (value.type === 'names') return ['_tkt_names', value.kind, ...value.words].join(' ');
  if (value.type === 'words') return ['compadd --', ...value.words].join(' ');
  return '_files';
}

/** zsh's `name:action` for a value: 'site:{_tkt_names site}'. */
function zshValue(value: ValueCompletion): string {
  if (value.type === 'names') return `${value.kind}:{${zshCommand(value)}}`;
  if (value.type === 'words') return `value:(${value.words.join(' ')})`;
  return 'file:_files';
}

/**
 * zsh's _arguments spec for one option: '--site=[Site]:site:{_tkt_names site}'. A long option's
 * "=" lets its value follow in the same word (--site=Remote) as well as in the next.
 */
function zshOptionSpecs(option: OptionSpec): string[] {
  const description = oneLine(option.description).replace(/[[\]]/g, '').replace(/:/g, '\\:');
  const value = option.value === undefined ? '' : `:${zshValue(option.value)}`;
  const joined = option.value === undefined ? '' : '=';
  return flagsOf(option).map((flag) => singleQuoted(`${flag}${flag.startsWith('--') ? joined : ''}[${description}]${value}`));
}

/**
 * zsh's _arguments specs for a command's words that are not options. Every one is declared:
 * _arguments completes nothing more on a line that holds a word it has no spec for
 * (`tkt update 1013 --priority <Tab>`).
 */
function zshPositionalSpecs(command: CommandSpec): string[] {
  const subcommands = Object.entries(command.subcommandArguments);
  if (command.positionals.length === 0 && command.argumentWords.length > 0) {
    // A command with subcommands (config get KEY, templates show NAME): their names, the subcommand's own first
    // argument ($words[2] is the subcommand here), then its other arguments (config set KEY VALUE).
    const cases = subcommands.map(([sub, value]) => `(${sub}) ${zshCommand(value)} ;;`).join(' ');
    return [
      `1:subcommand:(${command.argumentWords.join(' ')})`,
      ...(subcommands.length > 0 ? [`2:argument:{case $words[2] in ${cases} esac}`] : []),
      '*:argument: ',
    ];
  }
  const [first] = command.positionals;
  // Files and names only after the first ID: attach ID FILE..., assign ID... USER.
  if (first !== undefined && command.argumentsAfterFirst !== undefined) return [`1:${first.name}: `, `*:${zshValue(command.argumentsAfterFirst)}`];
  return command.positionals.map(({ name, variadic }, i) => {
    let action = ' ';
    // help's names (the aliases) come at Tab time, beside its words.
    if (i === 0 && command.argumentNames !== undefined) action = `{${zshCommand(firstArgumentCompletion(command))}}`;
    else if (i === 0 && command.argumentWords.length > 0) action = `(${command.argumentWords.join(' ')})`;
    return `${variadic ? '*' : i + 1}:${name}:${action}`;
  });
}

function zshCommandCase(command: CommandSpec, globalOptions: OptionSpec[]): string {
  // Global options work after the command too (tkt list --json).
  const own = new Set(command.options.flatMap(flagsOf));
  const globals = globalOptions.filter((option) => !flagsOf(option).some((flag) => own.has(flag)));
  const specs = [...[...command.options, ...globals].flatMap(zshOptionSpecs), ...zshPositionalSpecs(command).map(singleQuoted)];
  return `    ${[command.name, ...command.aliases].join('|')}) _arguments -s ${specs.join(' ')} ;;`;
}

export function zshScript(spec: CompletionSpec): string {
  const commandList = spec.commands
    .flatMap((command) =>
      [command.name, ...command.aliases].map((name) => `    ${singleQuoted(`${name}:${oneLine(command.description).replace(/:/g, '\\:')}`)}`),
    )
    .join('\n');
  return `#compdef tkt
# zsh completion for tkt. Load it with:  source <(tkt completion zsh)
# or save it as _tkt in a folder of $fpath.

_tkt_names() {
  # The names of a kind (cached lookup names or the profiles: never a network request) and the
  # fixed words after it (@me, none); they match without regard to case, as tkt matches them.
  # Called from _arguments' {...} actions, which leave their compadd options in $expl.
  local kind=$1
  shift
  local -a names
  names=("$@" \${(f)"$(tkt __complete "$kind" 2>/dev/null)"})
  compadd -M 'm:{a-zA-Z}={A-Za-z}' "\${expl[@]}" -a names
}

_tkt_command() {
  # $words from the command on, as _arguments' *:: state leaves them; $1 "alias" when the command
  # word may be an alias (tkt alias): the first of the line, not yet expanded.
  case $words[1] in
${spec.commands.map((command) => zshCommandCase(command, spec.globalOptions)).join('\n')}
    *)
      # An alias completes as the words it stands for and those typed after it; a shell alias's
      # arguments are its script's: files, as a shell offers.
      [[ $1 == alias ]] || return
      local -a expansion
      expansion=(\${(f)"$(tkt __complete "alias:$words[1]" 2>/dev/null)"})
      if [[ $expansion[1] == "!" ]]; then
        _files
      elif (( $#expansion )); then
        words=($expansion "\${(@)words[2,-1]}")
        (( CURRENT += $#expansion - 1 ))
        _tkt_command
      fi ;;
  esac
}

_tkt() {
  local -a commands
  commands=(
${commandList}
  )
  local curcontext="$curcontext" state line
  _arguments -C ${[...spec.globalOptions, ...spec.programOptions].flatMap(zshOptionSpecs).join(' ')} '1: :->command' '*:: :->args'
  case $state in
    # The commands, and the user's aliases (tkt alias).
    command) commands+=(\${(f)"$(tkt __complete alias 2>/dev/null)"}); _describe 'command' commands ;;
    # Only the line's first word is an alias: none after a global option (tkt --json mine).
    args) if (( $#opt_args )); then _tkt_command; else _tkt_command alias; fi ;;
  esac
}

if [[ "$funcstack[1]" == "_tkt" ]]; then
  _tkt "$@"
else
  compdef _tkt tkt
fi
`;
}
