// Key presses and pasted text, apart, and nothing else. Ink 6 cuts what the terminal sends into
// runs of text and single escape sequences and reads every one as a key press: a paste's line
// breaks were Enter and its letters commands (Ink 6 has no paste support; Ink 7's usePaste needs
// Node 22), and the terminal's own answers were keys too (the R of a cursor-position report read
// the view again). Here each event Ink emits goes through tkt's reader of terminal input
// (util/terminal-input.ts), which gathers pastes (bracketed paste is on while the screen is up)
// and drops the terminal's answers; only the keys it finds reach the key handler.
import { useInput, useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { createTerminalInputReader, keyPressOf, type KeyPress, type TerminalInput } from '../util/terminal-input.js';

export function useKeysAndPastes(onKey: (input: string, key: KeyPress) => void, onPaste: (text: string) => void): void {
  // Ink's own event channel (exposed by useStdin as internal_eventEmitter) carries each event
  // as the terminal sent it, before it is parsed into a key.
  const { internal_eventEmitter: events } = useStdin();
  const [reader] = useState(createTerminalInputReader);
  // What the event being handled holds, as the reader read it.
  const current = useRef<TerminalInput[]>([]);

  useEffect(() => {
    const read = (data: string) => {
      current.current = reader.read(data);
    };
    // Prepended, so it reads each event before useInput's listener, however often that one
    // subscribes again.
    events.prependListener('input', read);
    return () => void events.off('input', read);
  }, [events, reader]);

  // useInput turns raw mode on, and calls back once per event inside Ink's batched updates (one
  // frame for keys typed faster than they are read); the reader's keys are used, not Ink's.
  useInput(() => {
    const inputs = current.current;
    current.current = [];
    for (const input of inputs) {
      if (input.kind === 'paste') onPaste(input.text);
      else {
        const { input: typed, key } = keyPressOf(input.sequence);
        onKey(typed, key);
      }
    }
  });
}
