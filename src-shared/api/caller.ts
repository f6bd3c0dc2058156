/**
 * How every call of the API reaches the server: one `request` with the app's headers, and the errors it
 * throws. The calls themselves are plain functions of a caller, grouped by who makes them
 * (visitor-calls.ts, member-calls.ts, staff-calls.ts), so a bundle keeps only the calls its code makes
 * (docs/operations.md#javascript-weight); client.ts binds them all into the one client object the
 * console and the tests use. A call is named `api` + its route's operationId (`apiGetPetition`), the client's
 * method by the operationId alone (`getPetition`): the server's own functions have the operations' names. Only types come from the schemas, so the browser bundle does not pull in zod.
 */
import { ACTION_MADE_AT_HEADER, CSRF_HEADER, CSRF_HEADER_VALUE } from '../domain/core-constants.ts';
import type { Problem } from '../domain/schemas.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly problem: Problem | null;
  /** The answer's Retry-After header (seconds or an HTTP date), for callers that retry. */
  readonly retryAfter: string | null;

  constructor(status: number, detail: string, problem: Problem | null, retryAfter: string | null = null) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** Thrown when the server could not be reached at all, so callers can show their network texts. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

export interface StaffWriteOptions {
  /** The petition version the staff member saw; a stale one is refused with 412. */
  ifMatch?: number;
  /** Makes a retried write (for example from the console's outbox) apply at most once. */
  idempotencyKey?: string;
  /** When the action was made (ISO 8601), if before it is sent: the console's outbox sends its row's time. */
  madeAt?: string;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Extra headers on every call, e.g. the console's session header. */
  headers?: () => Record<string, string>;
}

/** What a call needs: the server's address (for links) and one request. */
export interface ApiCaller {
  /** Without a trailing slash; '' for the same origin. */
  readonly baseUrl: string;
  request<T>(method: string, path: string, body?: unknown, write?: StaffWriteOptions): Promise<T>;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function toQueryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A path segment from an id or a code. */
export const segment = (value: number | string) => encodeURIComponent(String(value));

export function createApiCaller(options: ApiClientOptions = {}): ApiCaller {
  const baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((...request: Parameters<typeof fetch>) => fetch(...request));

  async function request<T>(method: string, path: string, body?: unknown, write: StaffWriteOptions = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...(options.headers?.() ?? {}) };
    if (method !== 'GET' && method !== 'HEAD') headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (write.ifMatch !== undefined) headers['if-match'] = `"${write.ifMatch}"`;
    if (write.idempotencyKey) headers['idempotency-key'] = write.idempotencyKey;
    if (write.madeAt) headers[ACTION_MADE_AT_HEADER] = write.madeAt;
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        credentials: 'include',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new NetworkError(error);
    }
    const text = await response.text();
    let data: unknown = text ? safeJson(text) : undefined;
    // A successful answer that is not JSON (a CSV read through `read`) is its text.
    if (data === undefined && text && response.ok) data = text;
    if (!response.ok) {
      const problem = isProblem(data) ? data : null;
      throw new ApiError(
        response.status,
        problem?.detail ?? response.statusText ?? 'Request failed',
        problem,
        response.headers.get('retry-after'),
      );
    }
    return data as T;
  }

  return { baseUrl, request };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { detail?: unknown }).detail === 'string';
}
