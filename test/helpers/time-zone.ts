// Local time is part of some behaviour (a day's end, a skipped hour): tests pin the zone, so the
// results do not hang on the machine's. Node reads TZ again each time it is set.
import { afterAll, beforeAll } from 'vitest';

/** TZ is `zone` for the tests of the enclosing describe block (or file), and as it was after them. */
export function useTimeZone(zone: string): void {
  const saved = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = zone;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });
}
