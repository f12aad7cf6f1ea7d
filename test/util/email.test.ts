import { describe, expect, it } from 'vitest';
import { addressListProblem, addressProblem } from '../../src/util/email.js';

describe('addressProblem', () => {
  it('accepts what mail systems accept: tags, sub-domains, international names, a bare host', () => {
    for (const address of ['a@example.com', 'first.last+tickets@mail.example.co.uk', 'jörg@müller.example', 'root@localhost', ' padded@example.com ']) {
      expect(addressProblem('--email', address), address).toBeUndefined();
    }
  });

  it('names the option and the value of anything else', () => {
    for (const address of [
      'not-an-address',
      'a@',
      '@example.com',
      'a@@example.com',
      'a b@example.com',
      'a@example..com',
      'a@.example.com',
      'a@example.com.',
      'Anna <a@example.com>',
      'a@example.com,b@example.com',
    ]) {
      expect(addressProblem('--email', address), address).toBe(`--email: ${JSON.stringify(address.trim())} is not an e-mail address`);
    }
  });
});

describe('addressListProblem', () => {
  it('takes addresses separated by commas or semicolons, spaces and a trailing separator allowed', () => {
    expect(addressListProblem('--cc', 'a@example.com, b@example.com; c@example.com;')).toBeUndefined();
  });

  it('names the first address that is not one, or the whole value when it holds none', () => {
    expect(addressListProblem('--cc', 'a@example.com, nobody, x@')).toBe('--cc: "nobody" is not an e-mail address');
    expect(addressListProblem('--cc', ' ; ')).toBe('--cc: " ; " is not an e-mail address');
  });
});
