// A text refused as not UTF-8, as a reader of a file throws it (src/util/text-decode.ts): what the
// hint and the conversion of a draft are made from.
import { expect } from 'vitest';
import { NotTextError, textOfFile } from '../../src/util/text-decode.js';

/** The refusal of `bytes`, as a reader throws it. */
export function refusalOf(bytes: Buffer): NotTextError {
  try {
    textOfFile(bytes, 'draft.txt');
  } catch (error) {
    expect(error).toBeInstanceOf(NotTextError);
    return error as NotTextError;
  }
  throw new Error('expected a NotTextError');
}
