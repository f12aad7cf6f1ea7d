// The server's input a line at a time: a line over the limit refused with the ID its ends show.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { limitedLines, type RefusedLine } from '../../src/mcp/stdin-lines.js';

/** The lines `chunks` make, read as the server reads them with a limit of `max` bytes a line. */
async function read(chunks: string[], max: number): Promise<{ lines: string[]; refused: RefusedLine[] }> {
  const input = Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
  const refused: RefusedLine[] = [];
  const lines: string[] = [];
  const limited = limitedLines(input, (line) => refused.push(line), { max });
  limited.on('data', (line: Buffer) => lines.push(line.toString()));
  await new Promise((resolve) => input.once('end', resolve));
  return { lines, refused };
}

describe('limitedLines', () => {
  it('finds the trailing ID of a line that ends just after the limit, though the ID came partly before it', async () => {
    // Longer than the start kept, so only the end can show the ID; the piece that crosses the limit holds only its last bytes.
    const max = 200_000;
    const around = (search: string) => `{"jsonrpc":"2.0","method":"tools/call","params":{"search":"${search}"},"id":7}`;
    const line = around('S'.repeat(max + 2 - around('').length));
    const cut = line.length - 3;
    expect(cut).toBeLessThanOrEqual(max);
    const { lines, refused } = await read([line.slice(0, cut), line.slice(cut), '\n'], max);
    expect(refused).toEqual([{ bytes: line.length, id: 7 }]);
    expect(lines).toEqual([]);
  });
});
