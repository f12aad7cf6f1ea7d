// The bash completion script, generated from a CompletionSpec.
import { firstArgumentCompletion, type CompletionSpec, type ValueCompletion } from './spec.js';
import { flagsOf, singleQuoted } from './script-text.js';

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
  const globalAction = new Map(
    spec.globalOptions.flatMap((option) => (option.value === undefined ? [] : flagsOf(option).map((flag) => [flag, bashAction(option.value!)] as const))),
  );
  const commandUses = spec.commands.flatMap((command) =>
    command.options.flatMap((option) =>
      option.value === undefined ? [] : flagsOf(option).map((flag) => ({ names: [command.name, ...command.aliases], flag, action: bashAction(option.value!) })),
    ),
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

export function bashScript(spec: CompletionSpec): string {
  const commandWords = spec.commands.flatMap((command) => [command.name, ...command.aliases]);
  const globalFlags = spec.globalOptions.flatMap(flagsOf);
  const programFlags = spec.programOptions.flatMap(flagsOf);
  const globalValueFlags = spec.globalOptions.filter((option) => option.value !== undefined).flatMap(flagsOf);
  const perCommand = spec.commands
    .map((command) => {
      const names = [command.name, ...command.aliases].join('|');
      const flags = command.options.flatMap(flagsOf).join(' ');
      const subcommands = Object.entries(command.subcommandArguments)
        .map(([sub, value]) => `${sub}) subaction=${singleQuoted(bashAction(value))} ;; `)
        .join('');
      const subaction = subcommands === '' ? '' : ` case "$sub" in ${subcommands}esac;`;
      const after = command.argumentsAfterFirst === undefined ? '' : singleQuoted(bashAction(command.argumentsAfterFirst));
      const first = command.argumentWords.length === 0 && command.argumentNames === undefined ? '' : singleQuoted(bashAction(firstArgumentCompletion(command)));
      return `    ${names}) flags=${singleQuoted(flags)}; first=${first}; after=${after};${subaction} ;;`;
    })
    .join('\n');
  return `# bash completion for tkt. Load it with:  source <(tkt completion bash)
_tkt_fold() {
  # $1 lower-cased into the variable named $2, for matching without regard to case in every
  # locale: a Turkish one lower-cases I to dotless ı, and İ may stay as it is; both count as i.
  local _tkt_lower=\${1,,}
  _tkt_lower=\${_tkt_lower//ı/i}
  printf -v "$2" %s "\${_tkt_lower//İ/i}"
}

_tkt_names() {
  # The names of a kind (cached lookup names or the profiles: never a network request) and the
  # fixed words after it (@me, none), matched without regard to case, as tkt matches them. Each
  # is escaped for where it goes: outside quotes by printf %q; after an opening quote for that
  # quote, which readline then closes.
  local kind=$1 name folded quote="" typed
  shift
  [[ $cur == \\"* || $cur == \\'* ]] && quote=\${cur:0:1}
  typed=\${cur#"$quote"}
  [[ -z $quote ]] && typed=\${typed//\\\\/}
  _tkt_fold "$typed" typed
  COMPREPLY=()
  while IFS= read -r name; do
    _tkt_fold "$name" folded
    [[ -n $name && $folded == "$typed"* ]] || continue
    case $quote in
      \\') name=\${name//\\'/\\'\\\\\\'\\'} ;;
      \\") name=\${name//\\\\/\\\\\\\\}; name=\${name//\\"/\\\\\\"}; name=\${name//\\$/\\\\\\$}; name=\${name//\\\`/\\\\\\\`} ;;
      *) printf -v name %q "$name" ;;
    esac
    COMPREPLY+=("$name")
  done < <(printf '%s\\n' "$@"; tkt __complete "$kind" 2>/dev/null)
  # readline lists the candidates on a second Tab only when the first changed nothing, and a
  # first Tab puts in the line the start its candidates share, case and all: "A" for ANNA among
  # Anna Berg and Anna Lind. So a first Tab (COMP_TYPE 9) among several is offered only what was
  # typed, twice, once with a space: they share just that, the line stays as typed, and Tab Tab
  # lists the names.
  local as_typed=\${cur#"$quote"}
  ((COMP_TYPE == 9 && \${#COMPREPLY[@]} > 1)) && COMPREPLY=("$as_typed" "$as_typed ")
}

_tkt_files() {
  # Only where tkt takes files (--attach, attach's FILE...): never for IDs or names. At Tab,
  # compgen -f reads the word as the shell will (quotes, backslashes); its names come one a line,
  # whole (they hold spaces), and readline escapes them for where they go, closes a quote and
  # marks folders with "/" (-o filenames).
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}

_tkt() {
  local cur prev prefix=""
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  # --option=value: readline splits the word at "=" when COMP_WORDBREAKS holds it (bash's
  # default), the option and "=" then come before the value; else the value is completed within
  # the word, after the option and "=".
  if [[ $cur == "=" && $prev == --* ]]; then
    cur=""
  elif [[ $prev == "=" && \${COMP_WORDS[COMP_CWORD-2]} == --* ]]; then
    prev="\${COMP_WORDS[COMP_CWORD-2]}"
  elif [[ $cur == --*=* ]]; then
    prev="\${cur%%=*}"
    prefix="$prev="
    cur="\${cur#*=}"
  fi
  _tkt_complete
  [[ -n $prefix ]] && COMPREPLY=("\${COMPREPLY[@]/#/$prefix}")
  return 0
}

_tkt_complete() {
  local cmd="" sub="" flags="" first="" subaction="" after="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      # The option's value, after "=" when readline split the word there.
      ${globalValueFlags.join('|')}) [[ \${COMP_WORDS[i+1]} == "=" ]] && ((i++)); ((i++)) ;;
      -*) ;;
      *) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  # An alias (tkt alias), only ever the first word: the line completes as the words it stands for
  # and those typed after it; its expansion is not expanded again (\$1 set). A shell alias's
  # arguments are its script's: files, as a shell offers.
  if ((i == 1)) && [[ -n $cmd && -z $1 && " ${commandWords.join(' ')} " != *" $cmd "* ]]; then
    local -a expansion
    mapfile -t expansion < <(tkt __complete "alias:$cmd" 2>/dev/null)
    if [[ \${expansion[0]} == "!" ]]; then
      _tkt_files
      return
    elif ((\${#expansion[@]} > 0)); then
      [[ $prev == "$cmd" ]] && ((COMP_CWORD == 2)) && prev="\${expansion[\${#expansion[@]} - 1]}"
      COMP_WORDS=("\${COMP_WORDS[0]}" "\${expansion[@]}" "\${COMP_WORDS[@]:2}")
      ((COMP_CWORD += \${#expansion[@]} - 1))
      _tkt_complete expanded
      return
    fi
  fi
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
      COMPREPLY=($(compgen -W ${singleQuoted([...globalFlags, ...programFlags].join(' '))} -- "$cur"))
    else
      # The commands, and the user's aliases (tkt alias).
      COMPREPLY=($(compgen -W "${commandWords.join(' ')} $(tkt __complete alias 2>/dev/null)" -- "$cur"))
    fi
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags ${globalFlags.join(' ')}" -- "$cur"))
  elif [[ -n "$subaction" ]]; then
    # The subcommand's first argument: config get KEY, templates show NAME.
    ((i + 2 == COMP_CWORD)) && eval "$subaction"
  elif [[ -n "$first" && -z "$sub" ]]; then
    # The first argument: a subcommand, a fixed word or (help's) an alias.
    eval "$first"
  elif [[ -n "$sub" && -n "$after" ]]; then
    # After the first ID: attach's FILE..., assign's USER.
    eval "$after"
  fi
}
complete -F _tkt tkt
`;
}
