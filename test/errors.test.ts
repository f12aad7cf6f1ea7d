// The exit code of every kind of failure comes from one function, exitCodeOf (docs/cli.md section 5).
import { describe, expect, it } from 'vitest';
import {
  AbandonedRequestError,
  ApiError,
  AuthError,
  ExitCode,
  InDoubtError,
  InterruptedError,
  ItemFailedError,
  NetworkError,
  OperationError,
  OutputClosedError,
  UsageError,
  exitCodeOf,
  rethrowInDoubt,
} from '../src/errors.js';

const apiError = (status: number, serverMessages: string[] = []) =>
  new ApiError({ status, method: 'POST', url: 'https://helpdesk.example.com/api/TicketsApi/close/42', body: undefined, serverMessages });

describe('exitCodeOf', () => {
  it.each([
    ['a usage error', new UsageError('bad'), ExitCode.usage],
    ['no login', new AuthError('not logged in'), ExitCode.notAuthenticated],
    ['a local failure', new OperationError('declined'), ExitCode.failed],
    ['no HTTP answer', new NetworkError('refused', 'GET', 'http://127.0.0.1:9/', 'refused'), ExitCode.failed],
    ['Ctrl-C', new InterruptedError(), ExitCode.interrupted],
    ['a request given up', new AbandonedRequestError('POST', 'http://x/'), ExitCode.interrupted],
    ['a closed stdout', new OutputClosedError(), ExitCode.ok],
    ['HTTP 401', apiError(401), ExitCode.notAuthenticated],
    ['HTTP 403', apiError(403), ExitCode.permissionDenied],
    ['HTTP 404', apiError(404), ExitCode.notFound],
    ['HTTP 400 naming a missing permission', apiError(400, ['User lacks permission Tickets.Create']), ExitCode.permissionDenied],
    ['HTTP 400 naming a missing ticket', apiError(400, ['Ticket 42 was not found']), ExitCode.notFound],
    ['HTTP 400 naming a ticket that does not exist', apiError(400, ['Error loading metadata: ticket 42 does not exist.']), ExitCode.notFound],
    // The user or requester named does not exist: not found too, as a missing ticket is.
    ['HTTP 400 naming a missing requester', apiError(400, ['Requester not found']), ExitCode.notFound],
    [
      "the new endpoint's unknown requester",
      apiError(400, ['Requester "nobody-such" was not found (nor a user with e-mail n@example.com).']),
      ExitCode.notFound,
    ],
    ['a requester with a dot in the username', apiError(400, ['Requester "j.smith" was not found.']), ExitCode.notFound],
    ["requester reply's unknown user", apiError(400, ['User "ghost" was not found.']), ExitCode.notFound],
    ['HTTP 400 naming a user that does not exist', apiError(400, ['The user with ID 7 does not exist']), ExitCode.notFound],
    ["register's unknown CreatorId", apiError(400, ['CreatorId 99999 does not match any user.']), ExitCode.notFound],
    // Validation messages that name a user or ticket, or say "found", in another sense: failed.
    ['HTTP 400 naming a bad site', apiError(400, ['Site 99 was not found.']), ExitCode.failed],
    ['HTTP 400 where something else of the ticket is missing', apiError(400, ['Could not save the ticket: SiteId 99 not found']), ExitCode.failed],
    ['HTTP 400 that found too many users', apiError(400, ['Found 2 users with e-mail n@example.com: give the requester username']), ExitCode.failed],
    ['HTTP 400 of a validation failure', apiError(400, ['The Title field is required. Requester found no match for the e-mail.']), ExitCode.failed],
    ['HTTP 400 of a user field left out', apiError(400, ['Requester is required.']), ExitCode.failed],
    ['HTTP 500', apiError(500), ExitCode.failed],
    [
      'the only ticket of a bulk run',
      new ItemFailedError('#42 not found (HTTP 404)', new ApiError({ status: 404, method: 'GET', url: 'u', body: undefined, serverMessages: [] })),
      ExitCode.notFound,
    ],
    ['anything else', new Error('boom'), ExitCode.failed],
  ])('%s', (_what, error, code) => {
    expect(exitCodeOf(error)).toBe(code);
  });

  it('is what an error reports as its exit code, and what an ApiError names in its message', () => {
    const error = apiError(400, ['Ticket 42 does not exist']);
    expect(error.exitCode).toBe(ExitCode.notFound);
    expect(error.message).toBe('not found (HTTP 400): POST https://helpdesk.example.com/api/TicketsApi/close/42');
  });
});

describe('AbandonedRequestError', () => {
  it('says a request given up may have been carried out only when it would have changed something', () => {
    const url = 'https://helpdesk.example.com/api/TicketsApi';
    expect(new AbandonedRequestError('POST', `${url}/close/42`).message).toBe(
      `interrupted while waiting for the answer to POST ${url}/close/42: it may have been carried out`,
    );
    // A list is read by POST: its plan says it only reads.
    expect(new AbandonedRequestError('POST', url, true)).toMatchObject({
      message: `interrupted while waiting for the answer to POST ${url}`,
      mayHaveChanged: false,
    });
    expect(new AbandonedRequestError('GET', `${url}/42`).message).toBe(`interrupted while waiting for the answer to GET ${url}/42`);
  });
});

describe('rethrowInDoubt', () => {
  const url = 'https://helpdesk.example.com/api/TicketsApi/reply/7';
  const thrownBy = (error: unknown, ticket?: string) => {
    try {
      rethrowInDoubt({ ...(ticket === undefined ? {} : { ticket }), hint: 'look first' })(error);
    } catch (thrown) {
      return thrown;
    }
    throw new Error('rethrowInDoubt did not throw');
  };

  it('says a change that timed out is in doubt, with what happened under it and the hint: exit 1', () => {
    const timedOut = new NetworkError('timeout', 'POST', url, `request timed out after 2s: POST ${url}`);
    const error = thrownBy(timedOut, '#7');
    expect(error).toBeInstanceOf(InDoubtError);
    expect(error).toMatchObject({ message: '#7 in doubt (it may have been carried out)', details: [timedOut.message], hint: 'look first', cause: timedOut });
    expect(exitCodeOf(error)).toBe(ExitCode.failed);
    expect(thrownBy(timedOut)).toMatchObject({ message: 'in doubt (the service may have created it)' });
  });

  it("says so of a gateway's 502, and of a request given up on a second signal, which stays an interruption", () => {
    expect(thrownBy(new ApiError({ status: 502, method: 'POST', url, body: undefined, serverMessages: [] }), '#7')).toBeInstanceOf(InDoubtError);
    const givenUp = thrownBy(new AbandonedRequestError('POST', url), '#7');
    expect(givenUp).toBeInstanceOf(InterruptedError);
    expect(givenUp).toMatchObject({
      message: '#7 in doubt (it may have been carried out)',
      details: [`interrupted while waiting for the answer to POST ${url}`],
    });
    expect(exitCodeOf(givenUp)).toBe(ExitCode.interrupted);
  });

  it('throws any other failure as it came: nothing sent, a read, an answer', () => {
    for (const failure of [
      new NetworkError('refused', 'POST', url, 'connection refused'),
      new NetworkError('timeout', 'GET', url, 'request timed out'),
      new ApiError({ status: 500, method: 'POST', url, body: undefined, serverMessages: [] }),
      new Error('boom'),
    ]) {
      expect(thrownBy(failure, '#7')).toBe(failure);
    }
  });
});
