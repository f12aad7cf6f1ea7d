// The request plans (src/api/plans.ts): each endpoint's method, path and form as the spec gives
// them, reads retried and changes sent once, and bad IDs refused before any request exists.
import { describe, expect, it } from 'vitest';
import { permissionFor, plans } from '../../src/api/plans.js';
import { UsageError } from '../../src/errors.js';

const A_LOG = { path: 'a.log', name: 'a.log' };
const F_PNG = { path: 'shots/f.png', name: 'f.png' };

describe('request plans', () => {
  it('reads: method, path, retried, and what the answer must be', () => {
    expect(plans.getTicket(5)).toEqual({ method: 'GET', path: '/api/TicketsApi/5', retry: true, expect: 'object' });
    expect(plans.metadata()).toMatchObject({ method: 'GET', path: '/api/TicketsApi/metadata', retry: true });
    expect(plans.metadata(3)).toMatchObject({ method: 'GET', path: '/api/TicketsApi/metadata/3' });
    expect(plans.appMetadata()).toMatchObject({ method: 'GET', path: '/api/TicketsApi/appmetadata', retry: true });
    // The list POSTs only read: retried like a GET; a list may come wrapped in an object.
    expect(plans.listTickets({ page: 2, listType: 'MyOpenTickets' })).toEqual({
      method: 'POST',
      path: '/api/TicketsApi',
      json: { page: 2, listType: 'MyOpenTickets' },
      retry: true,
      expect: 'json',
    });
    expect(plans.listByUsername('ann', 3)).toEqual({
      method: 'POST',
      path: '/api/TicketsApi/list',
      form: { fields: { username: 'ann', page: 3 } },
      retry: true,
      expect: 'json',
    });
  });

  it('logs in without a token and never twice', () => {
    const credentials = { Email: 'ann', Password: 'pw', RememberMe: true, Domain: '' };
    expect(plans.authenticate(credentials)).toEqual({
      method: 'POST',
      path: '/api/Users/authenticate',
      json: credentials,
      retry: false,
      auth: false,
      expect: 'object',
    });
  });

  it('changes are sent once; a create must answer with the ticket, or at least its address', () => {
    const form = { fields: { Title: 't' } };
    expect(plans.register(form)).toEqual({ method: 'POST', path: '/api/TicketsApi/register', form, retry: false, expect: 'created' });
    expect(plans.newTicket(form)).toMatchObject({ path: '/api/TicketsApi/new', retry: false, expect: 'created' });
    expect(plans.updateTicket(4, { Id: 4, SiteId: 2 })).toEqual({
      method: 'POST',
      path: '/api/TicketsApi/update/4',
      form: { fields: { Id: 4, SiteId: 2 } },
      retry: false,
      expect: 'any',
    });
    // No body at all for the endpoints that take none (not an empty form).
    expect(plans.pickupTicket(4)).toEqual({ method: 'POST', path: '/api/TicketsApi/pickup/4', retry: false, expect: 'any' });
    expect(plans.markRead(4)).toEqual({ method: 'POST', path: '/api/TicketsApi/read/4', retry: false, expect: 'any' });
    expect(plans.deleteTicket(4)).toEqual({ method: 'DELETE', path: '/api/TicketsApi/4', retry: false, expect: 'any' });
    expect(plans.addFiles(4, [A_LOG])).toMatchObject({ path: '/api/TicketsApi/addfiles/4', form: { fields: {}, files: [A_LOG] } });
  });

  it("writes the service's form field names for each action, and files only when there are some", () => {
    expect(plans.resolveTicket(7, { details: 'fixed', submitBy: 'u-1' }).form).toEqual({ fields: { TicketId: 7, Details: 'fixed', SubmitBy: 'u-1' } });
    expect(
      plans.closeTicket(7, {
        closeBy: 'u-1',
        acknowledged: true,
        comments: 'c',
        status: 2,
        closureComments: 'cc',
        closingDate: '2026-11-25T00:00:00.000Z',
        files: [],
      }).form,
    ).toEqual({
      fields: { TicketId: 7, CloseBy: 'u-1', Acknowledged: true, Comments: 'c', Status: 2, ClosureComments: 'cc', ClosingDate: '2026-11-25T00:00:00.000Z' },
    });
    expect(plans.replyTicket(7, { subject: 'Re: x', to: 'a@example.com', cc: 'b@example.com', message: 'hi', files: [F_PNG] })).toMatchObject({
      path: '/api/TicketsApi/reply/7',
      form: { fields: { Id: 7, Title: 'Re: x', SendTo: 'a@example.com', CcTo: 'b@example.com', Message: 'hi' }, files: [F_PNG] },
    });
    expect(plans.forwardTicket(7, { subject: 'Fwd: x', to: 'v@example.com', draft: true }).form).toEqual({
      fields: { Id: 7, Title: 'Fwd: x', SendTo: 'v@example.com', CcTo: undefined, Message: undefined, HasDraft: true },
    });
    expect(plans.requesterReply(7, { username: 'ann', subject: 'Re: x', message: 'still broken' })).toMatchObject({
      path: '/api/TicketsApi/reqreply/7',
      form: { fields: { Id: 7, Username: 'ann', Title: 'Re: x', Message: 'still broken' } },
    });
  });

  it('sends every text composed (NFC), as the service stores it; upload names, numbers and tkt api as given', () => {
    const nfd = (text: string) => text.normalize('NFD');
    const upload = { path: nfd('shots/Gerät.png'), name: nfd('Gerät.png') };
    expect(plans.register({ fields: { Title: nfd('Gerät – Jörg'), Description: nfd('Büro'), SiteId: 1, Tags: [nfd('é'), 3] }, files: [upload] }).form).toEqual({
      fields: { Title: 'Gerät – Jörg', Description: 'Büro', SiteId: 1, Tags: ['é', 3] },
      files: [upload],
    });
    // A list the only text outside ASCII; a form all ASCII goes as it is.
    expect(plans.register({ fields: { Title: 'Printer', Tags: ['x', nfd('é')] } }).form?.fields.Tags).toEqual(['x', 'é']);
    const ascii = { fields: { Title: 'Printer', Tags: ['x'], SiteId: 1 } };
    expect(plans.register(ascii).form).toBe(ascii);
    expect(plans.newTicket({ fields: { Title: nfd('Gerät'), Email: undefined } }).form).toEqual({ fields: { Title: 'Gerät', Email: undefined } });
    expect(plans.updateTicket(4, { Id: 4, Title: nfd('Gerät') }).form).toEqual({ fields: { Id: 4, Title: 'Gerät' } });
    expect(plans.replyTicket(7, { subject: nfd('Re: Gerät'), to: 'a@example.com', message: nfd('Grüße'), files: [upload] }).form).toMatchObject({
      fields: { Title: 'Re: Gerät', Message: 'Grüße' },
      files: [upload],
    });
    expect(plans.forwardTicket(7, { subject: 'Fwd', to: 'v@example.com', message: nfd('Grüße') }).form?.fields.Message).toBe('Grüße');
    expect(plans.requesterReply(7, { username: 'ann', subject: 'Re', message: nfd('Grüße') }).form?.fields.Message).toBe('Grüße');
    expect(plans.closeTicket(7, { closeBy: 'u', comments: nfd('erledigt, Jörg'), closureComments: nfd('Müll') }).form?.fields).toMatchObject({
      Comments: 'erledigt, Jörg',
      ClosureComments: 'Müll',
    });
    expect(plans.resolveTicket(7, { details: nfd('Lüfter'), submitBy: 'u' }).form?.fields.Details).toBe('Lüfter');
    expect(plans.listTickets({ page: 1, search: nfd('Müller') }).json).toEqual({ page: 1, search: 'Müller' });
    expect(plans.listByUsername(nfd('jörg')).form?.fields.username).toBe('jörg');
    // tkt api sends exactly what it is given, as gh api does.
    expect(plans.anyRequest('POST', '/api/x', { form: { fields: { Title: nfd('Gerät') } } }).form?.fields.Title).toBe(nfd('Gerät'));
  });

  it('tkt api: any method and path, only a GET retried, any answer taken', () => {
    expect(plans.anyRequest('GET', '/api/x?y=1')).toEqual({ method: 'GET', path: '/api/x?y=1', retry: true, expect: 'unchecked' });
    expect(plans.anyRequest('POST', '/api/x', { json: { a: 1 } })).toEqual({
      method: 'POST',
      path: '/api/x',
      json: { a: 1 },
      retry: false,
      expect: 'unchecked',
    });
  });

  it('tkt api: the plan holds the path as it is sent under the base URL, so a dry run shows that', () => {
    const pathOf = (path: string) => plans.anyRequest('GET', path).path;
    expect(pathOf('//evil.example.com/api/x')).toBe('/evil.example.com/api/x');
    expect(pathOf('/\\evil.example.com/api/x')).toBe('/evil.example.com/api/x');
    expect(pathOf('api/Other?x=1')).toBe('/api/Other?x=1');
    expect(pathOf('/api/a/./b/../../../c?d=e f#frag')).toBe('/c?d=e%20f');
    expect(pathOf('/api/Gerät?x=1&y=a+b')).toBe('/api/Ger%C3%A4t?x=1&y=a+b');
    for (const path of ['//evil.example.com/api/x', '/api/a/../b?c', '/x/%2e%2e/y']) expect(pathOf(pathOf(path))).toBe(pathOf(path));
  });

  it('refuses a ticket ID that is not a whole, safe, positive number before any request exists', () => {
    for (const id of [1.5, -1, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() => plans.getTicket(id)).toThrow(UsageError);
      expect(() => plans.closeTicket(id, { closeBy: 'u' })).toThrow(UsageError);
    }
  });
});

describe('the permission a request needs', () => {
  it.each([
    ['POST', 'https://h.example/api/TicketsApi/register', 'Tickets.Create'],
    ['POST', 'https://h.example/helpdesk/api/TicketsApi/close/1013', 'Tickets.Close'],
    ['POST', 'https://h.example/api/TicketsApi/update/7', 'Tickets.Update'],
    ['POST', 'https://h.example/api/TicketsApi/forward/7', 'Tickets.Forward'],
    ['POST', 'https://h.example/api/TicketsApi/reply/7', 'Tickets.Reply'],
    ['POST', 'https://h.example/api/TicketsApi/resolve/7', 'Tickets.Resolve'],
    ['POST', 'https://h.example/api/TicketsApi/pickup/7', 'Tickets.Pickup'],
    ['DELETE', 'https://h.example/api/TicketsApi/7', 'Tickets.Delete'],
  ])('%s %s needs %s', (method, url, permission) => {
    expect(permissionFor(method, url)).toBe(permission);
  });

  it.each([
    ['GET', 'https://h.example/api/TicketsApi/7'],
    ['POST', 'https://h.example/api/TicketsApi/reqreply/7'],
    ['POST', 'https://h.example/api/TicketsApi/addfiles/7'],
    ['POST', 'https://h.example/api/TicketsApi/new'],
    ['GET', 'https://h.example/api/TicketsApi/metadata'],
    ['POST', 'https://h.example/other/close/7'],
    ['POST', 'not a url'],
  ])('%s %s needs none the service names', (method, url) => {
    expect(permissionFor(method, url)).toBeUndefined();
  });
});
