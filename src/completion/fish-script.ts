// The fish completion script, generated from a CompletionSpec.
import type { CompletionSpec, OptionSpec, ValueCompletion } from './spec.js';
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

export function fishScript(spec: CompletionSpec): string {
  const lines = [
    '# fish completion for tkt. Load it with:  tkt completion fish | source',
    '# or save it as ~/.config/fish/completions/tkt.fish',
    fishNeedsCommand(spec),
    'complete -c tkt -f',
    // The user's aliases (tkt alias).
    "complete -c tkt -n '__tkt_needs_command' -a '(tkt __complete alias 2>/dev/null)' -d alias",
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
    if (command.argumentWords.length > 0) lines.push(`complete -c tkt -n ${singleQuoted(wordsCondition)} -a ${singleQuoted(command.argumentWords.join(' '))}`);
    for (const [sub, value] of subcommands) {
      lines.push(`complete -c tkt -n ${singleQuoted(`${condition}; and __fish_seen_subcommand_from ${sub}`)} ${fishCandidates(value)}`);
    }
    // After the first ID (tkt attach 42 ..., tkt assign 42 ...): the command line holds tkt, the command and an ID.
    const afterId = singleQuoted(`${condition}; and test (count (commandline -opc)) -ge 3`);
    if (command.argumentsAfterFirst !== undefined) lines.push(`complete -c tkt -n ${afterId} ${fishCandidates(command.argumentsAfterFirst)}`);
  }
  return `${lines.join('\n')}\n`;
}
