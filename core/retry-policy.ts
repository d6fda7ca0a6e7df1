/**
 * The spec's storage retry constants, kept for intent (DESIGN.md, platform constants): retry on
 * 5xx, 408 and 429 with doubling back-off (up to 64 s) and jitter; 120 s per operation, 600 s
 * per upload; 30 s per request.
 */
export const RETRY_POLICY = {
  requestTimeoutMs: 30_000,
  maxOperationMs: 120_000,
  maxUploadMs: 600_000,
  maxBackoffMs: 64_000,
  firstBackoffMs: 1_000,
} as const;

export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Doubling back-off with jitter (50–100 % of the ceiling), capped at 64 s. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_POLICY.maxBackoffMs, RETRY_POLICY.firstBackoffMs * 2 ** attempt);
  return Math.round(ceiling * (0.5 + random() / 2));
}
