// The fish completion script, generated from a CompletionSpec.
import { firstArgumentCompletion, type CompletionSpec, type OptionSpec, type ValueCompletion } from './spec.js';
import { flagsOf, singleQuoted, oneLine } from './script-text.js';

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

// An alias (tkt alias), only ever the line's first word, completes as the words it stands for
// (tkt __complete alias:NAME) and those typed after it: fish's own completion of that line. A
// shell alias's arguments are its script's: files, as a shell offers.
function fishAlias(spec: CompletionSpec): string {
  const commandWords = spec.commands.flatMap((command) => [command.name, ...command.aliases]);
  return `function __tkt_alias_words
    set -l words (commandline -opc)
    set -q words[2]; or return 1
    contains -- $words[2] ${commandWords.join(' ')}; and return 1
    set -l expansion (tkt __complete alias:$words[2] 2>/dev/null)
    set -q expansion[1]; or return 1
    printf '%s\\n' $expansion
end
function __tkt_alias_complete
    set -l expansion (__tkt_alias_words)
    set -l words (commandline -opc)
    if string match -q -- '!' "$expansion[1]"
        __fish_complete_path (commandline -ct)
    else
        complete -C (string join ' ' -- tkt (string escape -- $expansion $words[3..-1]) (commandline -ct))
    end
end`;
}

export function fishScript(spec: CompletionSpec): string {
  const lines = [
    '# fish completion for tkt. Load it with:  tkt completion fish | source',
    '# or save it as ~/.config/fish/completions/tkt.fish',
    fishNeedsCommand(spec),
    fishAlias(spec),
    'complete -c tkt -f',
    // The user's aliases (tkt alias).
    "complete -c tkt -n '__tkt_needs_command' -a '(tkt __complete alias 2>/dev/null)' -d alias",
    "complete -c tkt -n '__tkt_alias_words >/dev/null' -a '(__tkt_alias_complete)'",
    ...spec.globalOptions.map((option) => fishOption(option, '')),
    ...spec.programOptions.map((option) => fishOption(option, '__tkt_needs_command')),
  ];
  for (const command of spec.commands) {
    const names = [command.name, ...command.aliases];
    for (const name of names) lines.push(`complete -c tkt -n '__tkt_needs_command' -a ${name} -d ${singleQuoted(oneLine(command.description))}`);
    const condition = `__fish_seen_subcommand_from ${names.join(' ')}`;
    lines.push(...command.options.map((option) => fishOption(option, condition)));
    const subcommands = Object.entries(command.subcommandArguments);
    // A command's own words only until one is given (config get, not config get get).
    const wordsCondition = subcommands.length > 0 ? `${condition}; and not __fish_seen_subcommand_from ${command.argumentWords.join(' ')}` : condition;
    if (command.argumentWords.length > 0 || command.argumentNames !== undefined)
      lines.push(`complete -c tkt -n ${singleQuoted(wordsCondition)} ${fishCandidates(firstArgumentCompletion(command))}`);
    // The subcommand's first argument right after it, as bash and zsh complete it: not alias set NAME's expansion.
    for (const [sub, value] of subcommands) {
      const afterSub = `${condition}; and __fish_seen_subcommand_from ${sub}; and test (commandline -opc)[-1] = ${sub}`;
      lines.push(`complete -c tkt -n ${singleQuoted(afterSub)} ${fishCandidates(value)}`);
    }
    // After the first ID (tkt attach 42 ..., tkt assign 42 ...): the command line holds tkt, the command and an ID.
    const afterId = singleQuoted(`${condition}; and test (count (commandline -opc)) -ge 3`);
    if (command.argumentsAfterFirst !== undefined) lines.push(`complete -c tkt -n ${afterId} ${fishCandidates(command.argumentsAfterFirst)}`);
  }
  return `${lines.join('\n')}\n`;
}
