// Key presses and pasted text, apart. Ink 6 has no paste support (Ink 7's usePaste needs Node
// 22): it cuts what the terminal sends into runs of text and single escape sequences, emits
// each as an 'input' event, and useInput reads every event as a key press. A paste's line
// breaks were then Enter and its letters commands. With bracketed paste on, the terminal wraps
// a paste in ESC[200~ ... ESC[201~, and each marker comes as an event of its own: the events
// between them are gathered into one paste and never reach the key handler.
import { useInput, useStdin, type Key } from 'ink';
import { useEffect, useRef } from 'react';

/** Asks the terminal to mark pastes (xterm's bracketed paste mode); the second sequence stops it. */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export function useKeysAndPastes(onKey: (input: string, key: Key) => void, onPaste: (text: string) => void): void {
  // Ink's own event channel (exposed by useStdin as internal_eventEmitter) carries each event
  // as the terminal sent it, before it is parsed into a key.
  const { internal_eventEmitter: events } = useStdin();
  // The paste being gathered, and whether the event being handled is part of one.
  const paste = useRef<{ text: string | undefined; inside: boolean }>({ text: undefined, inside: false });
  const handlePaste = useRef(onPaste);
  handlePaste.current = onPaste;

  useEffect(() => {
    const gather = (data: string) => {
      const state = paste.current;
      state.inside = state.text !== undefined || data === PASTE_START;
      if (data === PASTE_START) state.text = '';
      else if (data === PASTE_END && state.text !== undefined) {
        const text = state.text;
        state.text = undefined;
        handlePaste.current(text);
      } else if (state.text !== undefined) state.text += data;
    };
    // Prepended, so it sees each event before useInput's listener, however often that one
    // subscribes again.
    events.prependListener('input', gather);
    return () => void events.off('input', gather);
  }, [events]);

  useInput((input, key) => {
    if (!paste.current.inside) onKey(input, key);
  });
}
