// Shell completion scripts for bash, zsh and fish, generated from a CompletionSpec.
// Commands and options are written into the script; lookup names come at completion time
// from `tkt __complete KIND`, which reads the lookup cache only (instant, never the network).
import type { CommandSpec, CompletionSpec, OptionSpec } from './spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const flagsOf = (option: OptionSpec) => [option.short, option.long].filter((flag): flag is string => flag !== undefined);
const allOptions = (spec: CompletionSpec) => [...spec.globalOptions, ...spec.commands.flatMap((command) => command.options)];

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

// bash: the flag before the cursor decides (same flag, same values in every command).
function bashValueCases(spec: CompletionSpec): string {
  const byCase = new Map<string, string[]>();
  for (const option of allOptions(spec)) {
    if (option.value === undefined) continue;
    const action =
      option.value.type === 'lookup'
        ? `_tkt_names ${option.value.kind}`
        : option.value.type === 'words'
          ? `COMPREPLY=($(compgen -W ${singleQuoted(option.value.words.join(' '))} -- "$cur"))`
          : '_tkt_files';
    const flags = byCase.get(action) ?? [];
    for (const flag of flagsOf(option)) if (!flags.includes(flag)) flags.push(flag);
    byCase.set(action, flags);
  }
  return [...byCase].map(([action, flags]) => `    ${flags.join('|')}) ${action}; return ;;`).join('\n');
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
      return `    ${names}) flags=${singleQuoted(flags)}; words=${singleQuoted(command.argumentWords.join(' '))}; files=${command.argumentFiles ? 1 : ''}; lookup=${command.argumentLookup ?? ''};${subwords} ;;`;
    })
    .join('\n');
  return `# bash completion for tkt. Load it with:  source <(tkt completion bash)
_tkt_names() {
  # Cached lookup names only: never a network request. Matched without regard to case, as tkt
  # matches them. Outside quotes each name is escaped for the shell (printf %q keeps spaces and
  # apostrophes); after an opening quote it is left as is, for readline to close the quote.
  local name quote="" typed
  [[ $cur == \\\"* || $cur == \\\'* ]] && quote=\${cur:0:1}
  typed=\${cur#"$quote"}
  [[ -z $quote ]] && typed=\${typed//\\\\/}
  COMPREPLY=()
  while IFS= read -r name; do
    [[ \${name,,} == "\${typed,,}"* ]] || continue
    if [[ -n $quote ]]; then COMPREPLY+=("$name"); else COMPREPLY+=("$(printf '%q' "$name")"); fi
  done < <(tkt __complete "$1" 2>/dev/null)
}

_tkt_files() {
  # Only where tkt takes files (--attach, attach's FILE...): never for IDs or names.
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
}

_tkt() {
  local cur prev cmd="" sub="" flags="" words="" subwords="" files="" lookup="" i
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
  case "$prev" in
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
  elif [[ -n "$sub" ]]; then
    # After the first ID: attach's FILE..., assign's USER.
    if [[ -n "$files" ]]; then _tkt_files; elif [[ -n "$lookup" ]]; then _tkt_names "$lookup"; fi
  fi
}
complete -F _tkt tkt
`;
}

/** zsh's _arguments spec for one option: '--site[Site]:site:_tkt_names site'. */
function zshOptionSpecs(option: OptionSpec): string[] {
  const description = oneLine(option.description).replace(/[[\]]/g, '').replace(/:/g, '\\:');
  let value = '';
  if (option.value?.type === 'lookup') value = `:${option.value.kind}:_tkt_names ${option.value.kind}`;
  else if (option.value?.type === 'words') value = `:value:(${option.value.words.join(' ')})`;
  else if (option.value?.type === 'files') value = ':value:_files';
  return flagsOf(option).map((flag) => singleQuoted(`${flag}[${description}]${value}`));
}

function zshCommandCase(command: CommandSpec, globalOptions: OptionSpec[]): string {
  // Global options work after the command too (tkt list --json).
  const own = new Set(command.options.flatMap(flagsOf));
  const globals = globalOptions.filter((option) => !flagsOf(option).some((flag) => own.has(flag)));
  const specs = [...command.options, ...globals].flatMap(zshOptionSpecs);
  if (command.argumentWords.length > 0) specs.push(singleQuoted(`1:argument:(${command.argumentWords.join(' ')})`));
  // The subcommand's own first argument (config get KEY): $words[2] is the subcommand here.
  const subcommands = Object.entries(command.subcommandWords);
  if (subcommands.length > 0) {
    const cases = subcommands.map(([sub, words]) => `(${sub}) compadd -- ${words.join(' ')} ;;`).join(' ');
    specs.push(singleQuoted(`2:argument:{case $words[2] in ${cases} esac}`));
  }
  // Files and names only after the first ID: attach ID FILE..., assign ID... USER.
  if (command.argumentFiles || command.argumentLookup !== undefined) specs.push(singleQuoted('1:id: '));
  if (command.argumentFiles) specs.push(singleQuoted('*:file:_files'));
  if (command.argumentLookup !== undefined) specs.push(singleQuoted(`*:${command.argumentLookup}:_tkt_names ${command.argumentLookup}`));
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
  # Cached lookup names only: never a network request. _arguments puts its own compadd options
  # (-J group, -X description...) before the action's words, so the kind is the last argument;
  # names match without regard to case, as tkt matches them.
  local kind=\${@[-1]}
  local -a names
  names=("\${(@f)$(tkt __complete "$kind" 2>/dev/null)}")
  compadd -M 'm:{a-zA-Z}={A-Za-z}' "\${@[1,-2]}" -a names
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

function fishOption(option: OptionSpec, condition: string): string {
  const parts = ['complete -c tkt'];
  if (condition !== '') parts.push(`-n ${singleQuoted(condition)}`);
  if (option.short !== undefined) parts.push(`-s ${option.short.replace(/^-/, '')}`);
  if (option.long !== undefined) parts.push(`-l ${option.long.replace(/^--/, '')}`);
  if (option.value?.type === 'lookup') parts.push(`-x -a ${singleQuoted(`(tkt __complete ${option.value.kind} 2>/dev/null)`)}`);
  else if (option.value?.type === 'words') parts.push(`-x -a ${singleQuoted(option.value.words.join(' '))}`);
  else if (option.value?.type === 'files') parts.push('-r -F');
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
    if (command.argumentFiles) lines.push(`complete -c tkt -n ${afterId} -F`);
    if (command.argumentLookup !== undefined) lines.push(`complete -c tkt -n ${afterId} -a ${singleQuoted(`(tkt __complete ${command.argumentLookup} 2>/dev/null)`)}`);
  }
  return `${lines.join('\n')}\n`;
}
