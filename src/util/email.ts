// E-mail addresses as the options take them (forward and reply --to and --cc, create --cc and
// --email): checked before any request, so a typo is exit 2 naming the option and the value,
// not a 400 from the service after the ticket was read.

// One "@" between a local part and a domain, neither holding spaces, brackets, quotes or list
// separators; the domain has no empty label. Lenient beyond that (IDN domains, "+" tags), as
// the service's own check is: a valid address is never refused here.
const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@(?!\.)(?!.*\.\.)[^\s@<>()[\]\\,;:"]+(?<!\.)$/u;

function problem(flag: string, address: string): string {
  return `${flag}: ${JSON.stringify(address)} is not an e-mail address`;
}

/** Why `text` is not one e-mail address (--email), or undefined. */
export function addressProblem(flag: string, text: string): string | undefined {
  return ADDRESS.test(text.trim()) ? undefined : problem(flag, text.trim());
}

/** The addresses of a list separated by commas or semicolons, as typed. */
function splitAddresses(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/**
 * Every address of an option given once or more (`--cc a@x.org --cc "b@y.org; c@z.org"`), each
 * once whatever its case, as the one comma-separated list the service takes (SendTo, CcTo, Cc).
 */
export function joinAddresses(values: readonly string[]): string {
  const byLowerCase = new Map<string, string>();
  for (const address of values.flatMap(splitAddresses)) if (!byLowerCase.has(address.toLowerCase())) byLowerCase.set(address.toLowerCase(), address);
  return [...byLowerCase.values()].join(', ');
}

/**
 * Why `text` is not a list of e-mail addresses separated by commas or semicolons (--to, --cc),
 * naming the first address that is not one, or undefined.
 */
export function addressListProblem(flag: string, text: string): string | undefined {
  const addresses = splitAddresses(text);
  if (addresses.length === 0) return problem(flag, text);
  const bad = addresses.find((address) => !ADDRESS.test(address));
  return bad === undefined ? undefined : problem(flag, bad);
}
