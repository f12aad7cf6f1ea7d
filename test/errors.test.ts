// The exit code of every kind of failure comes from one function, exitCodeOf (docs/cli.md section 5).
import { describe, expect, it } from 'vitest';
import {
  AbandonedRequestError,
  ApiError,
  AuthError,
  ExitCode,
  InterruptedError,
  ItemFailedError,
  NetworkError,
  OperationError,
  OutputClosedError,
  UsageError,
  exitCodeOf,
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
    ['HTTP 400 naming a bad field', apiError(400, ['Requester not found']), ExitCode.failed],
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
