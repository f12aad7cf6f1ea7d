// Type-to-filter over a list held in memory, drawn like @inquirer/search. That prompt filters
// asynchronously and ignores an Enter that comes before the results of what was typed, so a
// search typed together with Enter (fast typing, a paste: "Anna\r" in one read) lost the Enter.
// Here the list is filtered as each key comes, so Enter always takes the first match of the whole
// term.
import {
  createPrompt,
  isDownKey,
  isEnterKey,
  isTabKey,
  isUpKey,
  makeTheme,
  useKeypress,
  useMemo,
  usePagination,
  usePrefix,
  useState,
  type Status,
  type Theme,
} from '@inquirer/core';

interface SearchTheme {
  icon: { cursor: string };
  style: {
    searchTerm: (text: string) => string;
    description: (text: string) => string;
    keysHelpTip: (keys: [key: string, action: string][]) => string;
  };
}

const plainSearchTheme: SearchTheme = {
  icon: { cursor: '❯' },
  style: {
    searchTerm: (text) => text,
    description: (text) => text,
    keysHelpTip: (keys) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
};

export interface SearchListChoice {
  name: string;
  description?: string | undefined;
}

export interface SearchListConfig {
  message: string;
  choices: readonly SearchListChoice[];
  /** The indices of the choices that `term` shows, the best first. */
  search: (choices: readonly SearchListChoice[], term: string) => readonly number[];
  /** Choices shown at once (7 unless told). */
  pageSize?: number;
  /** The index in `choices` of the one the list starts on, before anything is typed (the first unless told). */
  initial?: number;
  theme?: PartialTheme<Theme<SearchTheme>>;
}

/** Any part of a theme, as makeTheme merges it (Parameters<typeof makeTheme<T>> comes out as never here). */
type PartialTheme<T> = T extends (...args: never[]) => unknown ? T : { [K in keyof T]?: PartialTheme<T[K]> };

const PAGE_SIZE = 7;

/** Answers the index in `choices` of the entry chosen. */
export const searchList = createPrompt((config: SearchListConfig, done: (index: number) => void) => {
  const theme = makeTheme<SearchTheme>(plainSearchTheme, config.theme);
  const [status, setStatus] = useState<Status>('idle');
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(() => Math.max(0, config.search(config.choices, '').indexOf(config.initial ?? -1)));
  const prefix = usePrefix({ status, theme });
  const matching = useMemo(() => config.search(config.choices, term).map((index) => ({ ...config.choices[index]!, index })), [term]);
  const chosen = matching[active];

  useKeypress((key, rl) => {
    if (isEnterKey(key)) {
      if (chosen === undefined) {
        // readline emptied its line on Enter: give back what was typed, to be corrected.
        rl.write(term);
        return;
      }
      setStatus('done');
      done(chosen.index);
    } else if (isUpKey(key) || isDownKey(key)) {
      // readline took the arrow for its history: the line stays what was typed.
      rl.clearLine(0);
      rl.write(term);
      setActive(Math.max(0, Math.min(matching.length - 1, active + (isUpKey(key) ? -1 : 1))));
    } else if (isTabKey(key) && chosen !== undefined) {
      rl.clearLine(0);
      rl.write(chosen.name);
      setTerm(chosen.name);
      setActive(0);
    } else if (rl.line !== term) {
      setTerm(rl.line);
      setActive(0);
    }
  });

  const page = usePagination({
    items: matching,
    active,
    renderItem: ({ item, isActive }) => (isActive ? theme.style.highlight(`${theme.icon.cursor} ${item.name}`) : `  ${item.name}`),
    pageSize: config.pageSize ?? PAGE_SIZE,
    loop: false,
  });
  const message = theme.style.message(config.message, status);
  if (status === 'done' && chosen !== undefined) return `${prefix} ${message} ${theme.style.answer(chosen.name)}`;
  const body = [
    matching.length === 0 && term !== '' ? theme.style.error('No results found') : page,
    ' ',
    chosen?.description === undefined ? '' : theme.style.description(chosen.description),
    theme.style.keysHelpTip([
      ['↑↓', 'navigate'],
      ['⏎', 'select'],
    ]),
  ];
  return [[prefix, message, theme.style.searchTerm(term)].join(' ').trimEnd(), body.filter(Boolean).join('\n').trimEnd()];
});
