// Shell completion scripts for bash, zsh and fish, generated from a CompletionSpec.
// Commands and options are written into the script; lookup names come at completion time
// from `tkt __complete KIND`, which reads the lookup cache only (instant, never the network).
import type { CommandSpec, CompletionSpec, OptionSpec, ValueCompletion } from './spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const flagsOf = (option: OptionSpec) => [option.short, option.long].filter((flag): flag is string => flag !== undefined);

/** A word list safe inside single quotes in every shell we target. */
function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One description line: no line breaks, no quotes trouble. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function completionScript(shell: Shell, spec: CompletionSpec): string {
  if (shell === 'bash') return bashScript(spec);
  if (shell === 'zsh') return zshScript(spec);
  return fishScript(spec);
}

/** The bash command that completes a value. */
function bashAction(value: ValueCompletion): string {
  if (value.type === 'names') return ['_tkt_names', value.kind, ...value.words].join(' ');
  if (value.type === 'words') return `COMPREPLY=($(compgen -W ${singleQuoted(value.words.join(' '))} -- "$cur"))`;
  return '_tkt_files';
}

/** The value that occurs most often in `values` (the first of those that tie). */
function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

// bash: the command and the flag before the cursor decide ("$cmd $prev"). A flag completes as
// the global option, else as most commands complete it, under `*" --flag"`; a command where it
// completes otherwise (list's --assignee also takes "none") gets an arm of its own, before.
function bashValueCases(spec: CompletionSpec): string {
  const globalAction = new Map(spec.globalOptions.flatMap((option) => (option.value === undefined ? [] : flagsOf(option).map((flag) => [flag, bashAction(option.value!)] as const))));
  const commandUses = spec.commands.flatMap((command) =>
    command.options.flatMap((option) => (option.value === undefined ? [] : flagsOf(option).map((flag) => ({ names: [command.name, ...command.aliases], flag, action: bashAction(option.value!) })))),
  );
  const specific = new Map<string, Set<string>>();
  const general = new Map<string, Set<string>>();
  const add = (arms: Map<string, Set<string>>, action: string, pattern: string) => arms.set(action, (arms.get(action) ?? new Set()).add(pattern));
  for (const flag of new Set([...globalAction.keys(), ...commandUses.map((use) => use.flag)])) {
    const uses = commandUses.filter((use) => use.flag === flag);
    const usual = globalAction.get(flag) ?? mostCommon(uses.map((use) => use.action));
    add(general, usual, `*" ${flag}"`);
    for (const use of uses) if (use.action !== usual) for (const name of use.names) add(specific, use.action, `${name}" ${flag}"`);
  }
  return [...specific, ...general].map(([action, patterns]) => `    ${[...patterns].join('|')}) ${action}; return ;;`).join('\n');
}

function bashScript(spec: CompletionSpec): string {
  const commandWords = spec.commands.flatMap((command) => [command.name, ...command.aliases]);
  const globalFlags = spec.globalOptions.flatMap(flagsOf);
  const globalValueFlags = spec.globalOptions.filter((option) => option.value !== undefined).flatMap(flagsOf);
  const perCommand = spec.commands
    .map((command) => {
      const names = [command.name, ...command.aliases].join('|');
      const flags = command.options.flatMap(flagsOf).join(' ');
      const subcommands = Object.entries(command.subcommandWords).map(([sub, words]) => `${sub}) subwords=${singleQuoted(words.join(' '))} ;; `).join('');
      const subwords = subcommands === '' ? '' : ` case "$sub" in ${subcommands}esac;`;
      const after = command.argumentsAfterFirst === undefined ? '' : singleQuoted(bashAction(command.argumentsAfterFirst));
      return `    ${names}) flags=${singleQuoted(flags)}; words=${singleQuoted(command.argumentWords.join(' '))}; after=${after};${subwords} ;;`;
    })
    .join('\n');
  return `# bash completion for tkt. Load it with:  source <(tkt completion bash)
_tkt_names() {
  # The names of a kind (cached lookup names or the profiles: never a network request) and the
  # fixed words after it (@me, none), matched without regard to case, as tkt matches them. Each
  # is escaped for where it goes: outside quotes by printf %q; after an opening quote for that
  # quote, which readline then closes.
  local kind=$1 name quote="" typed
  shift
  [[ $cur == \\"* || $cur == \\'* ]] && quote=\${cur:0:1}
  typed=\${cur#"$quote"}
  [[ -z $quote ]] && typed=\${typed//\\\\/}
  COMPREPLY=()
  while IFS= read -r name; do
    [[ -n $name && \${name,,} == "\${typed,,}"* ]] || continue
    case $quote in
      \\') name=\${name//\\'/\\'\\\\\\'\\'} ;;
      \\") name=\${name//\\\\/\\\\\\\\}; name=\${name//\\"/\\\\\\"}; name=\${name//\\$/\\\\\\$}; name=\${name//\\\`/\\\\\\\`} ;;
      *) printf -v name %q "$name" ;;
    esac
    COMPREPLY+=("$name")
  done < <(printf '%s\\n' "$@"; tkt __complete "$kind" 2>/dev/null)
  # readline lists the candidates on a second Tab only when the first changed nothing: offered
  # what was typed too, a first Tab (COMP_TYPE 9) among several candidates leaves the line as it
  # is, and Tab Tab lists them.
  ((COMP_TYPE == 9 && \${#COMPREPLY[@]} > 1)) && COMPREPLY+=("\${cur#"$quote"}")
}

_tkt_files() {
  # Only where tkt takes files (--attach, attach's FILE...): never for IDs or names.
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
}

_tkt() {
  local cur prev cmd="" sub="" flags="" words="" subwords="" after="" i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      ${globalValueFlags.join('|')}) ((i++)) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  # The word after the command: its argument or subcommand (config get), whose own first
  # argument (the setting) completes right after it.
  ((i + 1 < COMP_CWORD)) && sub="\${COMP_WORDS[i+1]}"
  case "$cmd $prev" in
${bashValueCases(spec)}
  esac
  case "$cmd" in
${perCommand}
  esac
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then
      COMPREPLY=($(compgen -W ${singleQuoted(globalFlags.join(' '))} -- "$cur"))
    else
      COMPREPLY=($(compgen -W ${singleQuoted(commandWords.join(' '))} -- "$cur"))
    fi
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags ${globalFlags.join(' ')}" -- "$cur"))
  elif [[ -n "$subwords" ]]; then
    ((i + 2 == COMP_CWORD)) && COMPREPLY=($(compgen -W "$subwords" -- "$cur"))
  elif [[ -n "$words" && -z "$sub" ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  elif [[ -n "$sub" && -n "$after" ]]; then
    # After the first ID: attach's FILE..., assign's USER.
    $after
  fi
}
complete -F _tkt tkt
`;
}

/** zsh's `name:action` for a value: 'site:{_tkt_names site}'. */
function zshValue(value: ValueCompletion): string {
  if (value.type === 'names') return `${value.kind}:{${['_tkt_names', value.kind, ...value.words].join(' ')}}`;
  if (value.type === 'words') return `value:(${value.words.join(' ')})`;
  return 'file:_files';
}

/** zsh's _arguments spec for one option: '--site[Site]:site:{_tkt_names site}'. */
function zshOptionSpecs(option: OptionSpec): string[] {
  const description = oneLine(option.description).replace(/[[\]]/g, '').replace(/:/g, '\\:');
  const value = option.value === undefined ? '' : `:${zshValue(option.value)}`;
  return flagsOf(option).map((flag) => singleQuoted(`${flag}[${description}]${value}`));
}

/**
 * zsh's _arguments specs for a command's words that are not options. Every one is declared:
 * _arguments completes nothing more on a line that holds a word it has no spec for
 * (`tkt update 1013 --priority <Tab>`).
 */
function zshPositionalSpecs(command: CommandSpec): string[] {
  const subcommands = Object.entries(command.subcommandWords);
  if (command.positionals.length === 0 && command.argumentWords.length > 0) {
    // A command with subcommands (config get KEY): their names, the subcommand's own first
    // argument ($words[2] is the subcommand here), then its other arguments (config set KEY VALUE).
    const cases = subcommands.map(([sub, words]) => `(${sub}) compadd -- ${words.join(' ')} ;;`).join(' ');
    return [`1:subcommand:(${command.argumentWords.join(' ')})`, ...(subcommands.length > 0 ? [`2:argument:{case $words[2] in ${cases} esac}`] : []), '*:argument: '];
  }
  const [first] = command.positionals;
  // Files and names only after the first ID: attach ID FILE..., assign ID... USER.
  if (first !== undefined && command.argumentsAfterFirst !== undefined) return [`1:${first.name}: `, `*:${zshValue(command.argumentsAfterFirst)}`];
  return command.positionals.map(({ name, variadic }, i) => {
    const action = i === 0 && command.argumentWords.length > 0 ? `(${command.argumentWords.join(' ')})` : ' ';
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

function zshScript(spec: CompletionSpec): string {
  const commandList = spec.commands
    .flatMap((command) => [command.name, ...command.aliases].map((name) => `    ${singleQuoted(`${name}:${oneLine(command.description).replace(/:/g, '\\:')}`)}`))
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

_tkt() {
  local -a commands
  commands=(
${commandList}
  )
  local curcontext="$curcontext" state line
  _arguments -C ${spec.globalOptions.flatMap(zshOptionSpecs).join(' ')} '1: :->command' '*:: :->args'
  case $state in
    command) _describe 'command' commands ;;
    args)
      case $words[1] in
${spec.commands.map((command) => zshCommandCase(command, spec.globalOptions)).join('\n')}
      esac ;;
  esac
}

if [[ "$funcstack[1]" == "_tkt" ]]; then
  _tkt "$@"
else
  compdef _tkt tkt
fi
`;
}

/** fish's candidates for a value: the names of a kind at Tab time after the fixed words, or files. */
function fishCandidates(value: ValueCompletion): string {
  if (value.type === 'names') return `-a ${singleQuoted([...value.words, `(tkt __complete ${value.kind} 2>/dev/null)`].join(' '))}`;
  if (value.type === 'words') return `-a ${singleQuoted(value.words.join(' '))}`;
  return '-F';
}

function fishOption(option: OptionSpec, condition: string): string {
  const parts = ['complete -c tkt'];
  if (condition !== '') parts.push(`-n ${singleQuoted(condition)}`);
  if (option.short !== undefined) parts.push(`-s ${option.short.replace(/^-/, '')}`);
  if (option.long !== undefined) parts.push(`-l ${option.long.replace(/^--/, '')}`);
  if (option.value !== undefined) parts.push(option.value.type === 'files' ? '-r -F' : `-x ${fishCandidates(option.value)}`);
  parts.push(`-d ${singleQuoted(oneLine(option.description))}`);
  return parts.join(' ');
}

// fish's own __fish_use_subcommand takes the value of `--profile work` for a command: this one
// skips the values of the global options that take one.
function fishNeedsCommand(spec: CompletionSpec): string {
  const withValue = spec.globalOptions.filter((option) => option.value !== undefined).flatMap(flagsOf);
  return `function __tkt_needs_command
    set -l words (commandline -opc)
    set -e words[1]
    while set -q words[1]
        switch $words[1]
            case ${withValue.join(' ')}
                set -e words[1]
            case '-*'
            case '*'
                return 1
        end
        set -e words[1]
    end
    return 0
end`;
}

function fishScript(spec: CompletionSpec): string {
  const lines = [
    '# fish completion for tkt. Load it with:  tkt completion fish | source',
    '# or save it as ~/.config/fish/completions/tkt.fish',
    fishNeedsCommand(spec),
    'complete -c tkt -f',
    ...spec.globalOptions.map((option) => fishOption(option, '')),
  ];
  for (const command of spec.commands) {
    const names = [command.name, ...command.aliases];
    for (const name of names) lines.push(`complete -c tkt -n '__tkt_needs_command' -a ${name} -d ${singleQuoted(oneLine(command.description))}`);
    const condition = `__fish_seen_subcommand_from ${names.join(' ')}`;
    lines.push(...command.options.map((option) => fishOption(option, condition)));
    const subcommands = Object.entries(command.subcommandWords);
    // A command's own words only until one is given (config get, not config get get).
    const wordsCondition = subcommands.length > 0 ? `${condition}; and not __fish_seen_subcommand_from ${command.argumentWords.join(' ')}` : condition;
    if (command.argumentWords.length > 0) lines.push(`complete -c tkt -n ${singleQuoted(wordsCondition)} -a ${singleQuoted(command.argumentWords.join(' '))}`);
    for (const [sub, words] of subcommands) {
      lines.push(`complete -c tkt -n ${singleQuoted(`${condition}; and __fish_seen_subcommand_from ${sub}`)} -a ${singleQuoted(words.join(' '))}`);
    }
    // After the first ID (tkt attach 42 ..., tkt assign 42 ...): the command line holds tkt, the command and an ID.
    const afterId = singleQuoted(`${condition}; and test (count (commandline -opc)) -ge 3`);
    if (command.argumentsAfterFirst !== undefined) lines.push(`complete -c tkt -n ${afterId} ${fishCandidates(command.argumentsAfterFirst)}`);
  }
  return `${lines.join('\n')}\n`;
}
