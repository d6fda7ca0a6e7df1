import type { z } from 'zod';
import type { ApiErrorBody } from '#core/contracts/common.contract.ts';
import { isErrorCode, type ErrorCode } from '#core/errors.ts';
import { backoffMs, isRetryableStatus, RETRY_POLICY } from '#core/retry-policy.ts';
import { noteAnswer } from './offline';

/** A failed API call, with the server's code (or a client-side one) and per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    /** The server's id for the failed request (x-request-id), for the rider to quote to support. */
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  schema?: z.ZodType<T>;
  signal?: AbortSignal;
  /** Overall budget for the operation including retries. */
  maxOperationMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The code of an answer without the server's error body (a proxy's, say). */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  401: 'storage/unauthenticated',
  403: 'storage/unauthorized',
  404: 'storage/object-not-found',
  429: 'auth/too-many-requests',
};

async function toApiError(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  // Structural check of apiErrorSchema's shape: keeps zod off the first page load (decision 002).
  const e = body as Partial<ApiErrorBody> | undefined;
  const requestId = res.headers.get('x-request-id') ?? undefined;
  if (e && typeof e === 'object' && isErrorCode(e.code) && typeof e.message === 'string') {
    const fields =
      e.fields && typeof e.fields === 'object'
        ? Object.fromEntries(Object.entries(e.fields).filter(([, v]) => typeof v === 'string'))
        : {};
    return new ApiError(e.code, res.status, e.message, fields, requestId);
  }
  return new ApiError(CODE_OF_STATUS[res.status] ?? 'storage/unknown', res.status, res.statusText, {}, requestId);
}

let requestLanguage: string | undefined;

/** The page's language, sent with every request so that the server's messages come in it. */
export function setRequestLanguage(language: string): void {
  requestLanguage = language;
}

/** Headers every request of the app carries. */
export function languageHeaders(): Record<string, string> {
  return requestLanguage ? { 'accept-language': requestLanguage } : {};
}

/** JSON request with a 30 s time-out per try and retries on 5xx, 408 and 429. */
export async function apiRequest<T>(path: string, opts: RequestOptions<T> = {}): Promise<T> {
  const started = Date.now();
  const budget = opts.maxOperationMs ?? RETRY_POLICY.maxOperationMs;
  const sleep = opts.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(RETRY_POLICY.requestTimeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response | undefined;
    let networkError = false;
    try {
      res = await fetch(path, {
        method: opts.method ?? 'GET',
        credentials: 'same-origin',
        headers:
          opts.body === undefined
            ? { accept: 'application/json', ...languageHeaders() }
            : { accept: 'application/json', 'content-type': 'application/json', ...languageHeaders() },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal,
      });
    } catch {
      if (opts.signal?.aborted) throw new ApiError('storage/canceled', 0, 'canceled');
      networkError = true;
    }
    if (res) noteAnswer(res);
    if (res?.ok) {
      const json: unknown = res.status === 204 ? undefined : await res.json();
      return opts.schema ? opts.schema.parse(json) : (json as T);
    }
    // The browser knows it has no network (a phone in the paddock): say so now rather than retry
    // for two minutes; the page offers its retry, and kept copies answer where there are some.
    if (networkError && typeof navigator !== 'undefined' && navigator.onLine === false)
      throw new ApiError('auth/network-request-failed', 0, 'offline');
    const retryable = networkError || (res !== undefined && isRetryableStatus(res.status));
    const wait = backoffMs(attempt);
    if (!retryable || Date.now() - started + wait > budget) {
      if (networkError)
        throw new ApiError(
          attempt > 0 ? 'storage/retry-limit-exceeded' : 'auth/network-request-failed',
          0,
          'network error',
        );
      const error = await toApiError(res!);
      if (retryable) throw new ApiError('storage/retry-limit-exceeded', error.status, error.message);
      throw error;
    }
    await sleep(wait);
  }
}
