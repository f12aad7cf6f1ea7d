// Triage's keys, in one table: what each key does (update.ts looks keys up here) and the words
// that list it, from which the footer, the ? screen, `tkt triage --help` and the README's key
// table are all made (test/triage/keys.test.ts keeps the README equal to it). `tkt triage
// --help` loads this file, so it imports nothing that runs.
import type { KeyPress } from '../util/terminal-input.js';

export type Action =
  | 'up'
  | 'down'
  | 'pageUp'
  | 'pageDown'
  | 'first'
  | 'last'
  | 'show'
  | 'filter'
  | 'clearFilter'
  | 'pickUp'
  | 'reply'
  | 'resolve'
  | 'close'
  | 'assign'
  | 'switchView'
  | 'reopen'
  | 'markRead'
  | 'browse'
  | 'refresh'
  | 'quit'
  | 'help'
  | 'interrupt'
  | 'suspend';

/** Keys by the names keyName gives them, and what each does. */
type Keys = Readonly<Record<string, Action>>;

export interface KeyRow {
  /** The keys as listed: groups that do the same in two ways (the arrows and vi's j k). */
  keys: readonly Keys[];
  /** Keys that do what listed ones do, left out of the lists (Esc, which `/`'s help explains). */
  unlisted?: Keys;
  /** Its word in the footer, which shows the rows that have one, in this order, as far as the width allows. */
  label?: string;
  /** In the footer whatever the width: the way out and the way to every key. */
  alwaysInFooter?: true;
  /** One line, for the ? screen and `tkt triage --help`. */
  help: string;
  /** The README's words, where it says more than `help`. */
  readme?: string;
}

export const KEY_TABLE: readonly KeyRow[] = [
  {
    keys: [
      { '↑': 'up', '↓': 'down' },
      { j: 'down', k: 'up' },
    ],
    help: 'move',
  },
  { keys: [{ PgUp: 'pageUp', PgDn: 'pageDown' }], help: 'move by a page' },
  {
    keys: [
      { Home: 'first', End: 'last' },
      { g: 'first', G: 'last' },
    ],
    help: 'to the first ticket, to the last',
  },
  {
    keys: [{ Enter: 'show' }],
    label: 'show',
    help: 'the full ticket in the pager (tkt show)',
    readme:
      'the whole ticket in the pager, as `tkt show` prints it; the default pager here is `less -R` over the ' +
      'whole screen until `q` (not `less -FRX`, which would quit at once on a short ticket and leave it in ' +
      "the shell's screen); a configured pager runs as it is, except that less is never given -F here " +
      "(with `LESS` unset it gets `R`, not git's `FRX`; a `LESS` of yours with F, or a command line such as " +
      '`less -FRX`, has it undone by a `-+F` added at the end of the command line), so a ' +
      'ticket that fits stays until `q`; one that cannot be run, or fails (exits non-zero other than by Ctrl-C), is said in the status line with its status (and, for a path with spaces given unquoted, the hint to quote it)',
  },
  {
    keys: [{ '/': 'filter' }],
    unlisted: { Esc: 'clearFilter' },
    label: 'filter',
    help: 'filter the list (Enter keeps it, Esc clears it)',
    readme:
      'filter the list by ID, title, status, priority, requester or assignee (Enter keeps it, Esc clears ' +
      'it; it stays when the view is read again with `R`, and is cleared when you switch view: a new view ' +
      'shows all its tickets)',
  },
  { keys: [{ p: 'pickUp' }], label: 'pick up', help: 'pick up (assign to yourself)' },
  {
    keys: [{ r: 'reply' }],
    label: 'reply',
    help: 'reply in $EDITOR (a template first, if any)',
    readme:
      'reply to the requester by e-mail, the message written in your editor (`tkt config get editor`); with ' +
      'reply templates, a picker offers them first (type to filter; Enter on `(no template)`, the first, ' +
      'opens the editor empty; Esc does nothing), and the editor opens with the one picked filled for the ' +
      'ticket, its subject used. A reply that could not be sent is kept, and the next `r` on that ticket ' +
      'opens the editor with it (no picker); ' +
      "leaving triage (q, Ctrl-C) saves it in the config folder's `drafts/reply-ID.txt` (`prod-reply-ID.txt` for " +
      'a profile other than default; `-2`, `-3`… never over one saved before) and says where, as gh saves the text of an issue it could not create, with the command that sends it ' +
      '(`hint: send it with "tkt reply 1023 --message-file ..."`; none for a reply in doubt, which may have reached the requester). The status line ' +
      'says what happened (`✓ replied to #1023`) until the next action or `R`',
  },
  {
    keys: [{ s: 'resolve' }],
    label: 'resolve',
    help: 'resolve (asks for the notes; a template first, if any)',
    readme:
      'resolve, with the resolution notes typed at the prompt; with reply templates, a picker offers them ' +
      'first (as for `r`): the one picked opens the editor with it filled, and what you save is the notes. ' +
      'Notes that could not be sent are kept as a reply is: the next `s` on that ticket offers them again (no ' +
      'picker; at the prompt, or in the editor when they are more than a line), Esc there keeps them as edited ' +
      '(emptied, they are dropped), and leaving triage saves them in `drafts/resolution-ID.txt` (`prod-resolution-ID.txt`) and says where, ' +
      'with the command that sends them (`tkt resolve 1023 --details-file ...`). ' +
      'The ticket is read first, as `tkt resolve ID` at a terminal reads it, and nothing is asked for one closed (the row may be older): it is refused ' +
      '(`ticket #1023 is closed: reopen it first`), since the service would move it back to Resolved and e-mail its requester again; nor for one ' +
      'resolved (`#1023 already resolved, nothing changed`); notes kept from an earlier try stay kept. It is read again as the notes are sent, ' +
      'as `tkt resolve` reads it then: it may have been closed while they were written',
  },
  {
    keys: [{ c: 'close' }],
    label: 'close',
    help: 'close (asks to confirm)',
    readme: 'close (asks y/n, naming a profile other than default: `Close #1023 on profile prod? (y/n)`)',
  },
  {
    keys: [{ a: 'assign' }],
    label: 'assign',
    help: 'assign (type to filter the technicians)',
    readme: 'assign: type to filter the technicians, Enter chooses',
  },
  {
    keys: [{ v: 'switchView' }],
    label: 'view',
    help: 'switch view',
    readme:
      'switch view: type to filter the views, Enter opens the first; the view named as typed comes first, ' +
      'then those whose name starts with it, then those with a word that does (`unassigned` opens ' +
      '`unassigned-tickets`, not `my-open-or-unassigned`); the assign picker orders technicians the same ' +
      'way',
  },
  { keys: [{ o: 'reopen' }], label: 'reopen', help: 'reopen (status Open)' },
  { keys: [{ m: 'markRead' }], label: 'read', help: 'mark read' },
  {
    keys: [{ w: 'browse' }],
    label: 'web',
    help: "open the ticket's page in the browser (tkt browse)",
    readme:
      "open the ticket's page in the browser, as `tkt browse` does (the status line says where, or that the `web-url` setting is missing, " +
      'or gives the URL when nothing can open it, with the hint to quote a `$BROWSER` path with spaces given unquoted)',
  },
  {
    keys: [{ R: 'refresh' }],
    label: 'refresh',
    help: 'refresh the list',
    readme: 'read the view again, and the saved login (a `tkt login` made in another shell counts)',
  },
  { keys: [{ q: 'quit' }], label: 'quit', alwaysInFooter: true, help: 'quit', readme: 'quit (exit 0)' },
  {
    keys: [{ '?': 'help' }],
    label: 'keys',
    alwaysInFooter: true,
    help: 'this help',
    readme:
      'every key, over the whole screen (the footer shows the most used ones that fit, then always `q quit` and `? keys`; ' +
      'while a picker, a prompt, a question, the filter being typed or this help is open, the keys that work there instead, ' +
      'such as `⏎ choose  Esc cancel  ↑ ↓ move  (type to filter)`); ' +
      'any key closes it, except on a screen too short for them all: there the moving keys scroll them (by a line, a ' +
      'page, to the ends) and the last line says how many more there are (a screen of 3 lines has room for one key line alone)',
  },
  {
    keys: [{ 'Ctrl-C': 'interrupt' }],
    help: 'quit, as interrupted (exit 130)',
    readme:
      'quit as interrupted: exit 130, as any command interrupted by Ctrl-C (a SIGTERM closes the screen too, exit 143); ' +
      'anywhere, the `s` prompt included: the notes being typed there are kept as notes not sent are, saved in ' +
      "`drafts/resolution-ID.txt` with the command that sends them, as `tkt resolve`'s prompt keeps them on Ctrl-C. " +
      'Ctrl-C stops the run wherever it is pressed, at the CLI as here (docs/cli.md section 8); Esc is the key that ' +
      'cancels a prompt or a picker and stays in triage',
  },
  {
    keys: [{ 'Ctrl-Z': 'suspend' }],
    help: 'suspend to the shell (fg comes back)',
    readme:
      "suspend to the shell, as less and vim do (job control): the shell's screen and its terminal as they were, triage " +
      "stopped until `fg`, which brings it back drawn at the terminal's size then; anywhere, even while typing. Run " +
      'without a shell with job control to return to, the screen stays and the status line says so',
  },
];

const ACTIONS: ReadonlyMap<string, Action> = new Map(KEY_TABLE.flatMap((row) => [...row.keys, row.unlisted ?? {}].flatMap((keys) => Object.entries(keys))));

const SPECIAL_NAMES: readonly (readonly [keyof KeyPress, string])[] = [
  ['upArrow', '↑'],
  ['downArrow', '↓'],
  ['pageUp', 'PgUp'],
  ['pageDown', 'PgDn'],
  ['home', 'Home'],
  ['end', 'End'],
  ['return', 'Enter'],
  ['escape', 'Esc'],
];

/** A key press by the name the table gives it: ↑, PgUp, Enter, Ctrl-C, or the character typed. */
export function keyName(input: string, key: KeyPress): string {
  if (key.ctrl === true) return `Ctrl-${input.toUpperCase()}`;
  return SPECIAL_NAMES.find(([flag]) => key[flag] === true)?.[1] ?? input;
}

/** What the key pressed does over the list, if anything. */
export const actionOf = (input: string, key: KeyPress): Action | undefined => ACTIONS.get(keyName(input, key));

/** The first key the table lists for `action`, by its name in the help ("Enter"). */
export function keyFor(action: Action): string {
  for (const row of KEY_TABLE) for (const keys of row.keys) for (const [key, bound] of Object.entries(keys)) if (bound === action) return key;
  throw new Error(`no key listed for ${action}`);
}

/** The keys of a row as the ? screen lists them: "↑ ↓  j k". */
const listedKeys = (row: KeyRow) => row.keys.map((keys) => Object.keys(keys).join(' ')).join('  ');

/** The width of the keys' column in the lines of keyHelpLines. */
export const KEYS_COLUMN = Math.max(...KEY_TABLE.map((row) => listedKeys(row).length));

/** One line per row: its keys, then what they do. */
export function keyHelpLines(): string[] {
  return KEY_TABLE.map((row) => `  ${listedKeys(row).padEnd(KEYS_COLUMN)}  ${row.help}`);
}

// The footer is short of room.
const FOOTER_NAMES: Readonly<Record<string, string>> = { Enter: '⏎' };

/** A row's "key label" as the footer shows it. */
const footerEntry = (row: KeyRow) => {
  const key = Object.keys(row.keys[0] ?? {})[0] ?? '';
  return `${FOOTER_NAMES[key] ?? key} ${row.label ?? ''}`;
};

/** The footer's entries that show when there is room, most used first. */
export const FOOTER_KEYS: readonly string[] = KEY_TABLE.filter((row) => row.label !== undefined && row.alwaysInFooter !== true).map(footerEntry);
/** What ends the footer whatever the width: "q quit  ? keys". */
export const FOOTER_ENDING = KEY_TABLE.filter((row) => row.alwaysInFooter === true)
  .map(footerEntry)
  .join('  ');

/**
 * The footer while the keys go to what is open over the list, or to the filter being typed: the
 * keys that work there, not the list's (README, Triage); the help's when it scrolls, and when it
 * does not. The most needed first: a narrow width cuts the end.
 */
export const OPEN_FOOTERS = {
  picker: '⏎ choose  Esc cancel  ↑ ↓ move  (type to filter)',
  prompt: '⏎ send  Esc cancel',
  confirm: 'y yes  any other key no',
  filter: '⏎ keep the filter  Esc clear it',
  help: 'any key closes',
  helpScrolling: '↑ ↓ PgUp PgDn scroll  other keys close',
} as const;

/** The README's key table, in Markdown. */
export function readmeKeyTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const keys = (row: KeyRow) =>
    row.keys
      .map((group) =>
        Object.keys(group)
          .map((key) => `\`${key}\``)
          .join(' '),
      )
      .join(' / ');
  return ['| key | what it does |', '|---|---|', ...KEY_TABLE.map((row) => `| ${cell(keys(row))} | ${cell(row.readme ?? row.help)} |`)].join('\n');
}

/**
 * Where a moving key (up, down, a page, first, last) takes position `at` of 0 to `last`, a page
 * being `page` places; undefined for any other action. The list and the help page move alike.
 */
export function movedTo(action: Action | undefined, at: number, page: number, last: number): number | undefined {
  const to = (place: number) => Math.max(0, Math.min(last, place));
  switch (action) {
    case 'up':
      return to(at - 1);
    case 'down':
      return to(at + 1);
    case 'pageUp':
      return to(at - page);
    case 'pageDown':
      return to(at + page);
    case 'first':
      return 0;
    case 'last':
      return to(last);
    default:
      return undefined;
  }
}
