// An answer as one exchange read it, before the client decides what it means.
import type { ApiResponse } from './types.js';

/** The answer with what makes its body unusable, if anything (see body.ts). */
export interface Received extends ApiResponse {
  problem: string | undefined;
}

/** Lower-case names; a repeated header is an array. */
export type ResponseHeaders = ApiResponse['headers'];

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A header's first value. */
export function header(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
