import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { backoffMs, isRetryableStatus } from '#core/retry-policy.ts';
import { apiRequest, ApiError } from './api-client';
import { intlFor, translator } from '#core/i18n/intl.ts';
import { errorMessage } from '../i18n/messages';

const t = translator(intlFor('pt-BR'));

afterEach(() => vi.unstubAllGlobals());

function respond(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('api client retry policy', () => {
  it('retries 5xx, 408 and 429 but not other 4xx', () => {
    expect([500, 502, 503, 408, 429].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });

  it('backs off by doubling with jitter, capped at 64 s', () => {
    expect(backoffMs(0, () => 1)).toBe(1000);
    expect(backoffMs(3, () => 1)).toBe(8000);
    expect(backoffMs(3, () => 0)).toBe(4000);
    expect(backoffMs(20, () => 1)).toBe(64000);
  });

  it('retries a 503 then succeeds, parsing with the schema', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(respond(503, { code: 'storage/internal-error', message: 'x' }))
      .mockResolvedValueOnce(respond(200, { n: 1 }));
    vi.stubGlobal('fetch', fetchMock);
    const sleeps: number[] = [];
    const out = await apiRequest('/api/x', {
      schema: z.object({ n: z.number() }),
      sleep: async (ms) => void sleeps.push(ms),
    });
    expect(out).toEqual({ n: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sleeps).toHaveLength(1);
  });

  it('gives up with storage/retry-limit-exceeded once the operation budget is spent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async () => respond(500, { code: 'storage/internal-error', message: 'x' })),
    );
    const err = await apiRequest('/api/x', { maxOperationMs: 3000, sleep: async () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('storage/retry-limit-exceeded');
  });

  it('surfaces the server code and field errors of a 4xx at once', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValue(
        respond(400, { code: 'storage/invalid-argument', message: 'bad', fields: { wifi: 'required' } }),
      );
    vi.stubGlobal('fetch', fetchMock);
    const err = (await apiRequest('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('storage/invalid-argument');
    expect(err.fields).toEqual({ wifi: 'required' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('maps a non-JSON error body by status', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>', { status: 403 })));
    const err = (await apiRequest('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('storage/unauthorized');
  });
});

describe('the request id, for support', () => {
  it("an error keeps the server's x-request-id, and its Portuguese message quotes it", async () => {
    const res = new Response(JSON.stringify({ code: 'storage/unauthorized', message: 'no' }), {
      status: 403,
      headers: { 'content-type': 'application/json', 'x-request-id': 'a1b2c3d4e5' },
    });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(res));
    const err = await apiRequest('/api/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).requestId).toBe('a1b2c3d4e5');
    expect(errorMessage(t, err)).toBe('Você não tem permissão para isso. (código do erro: a1b2c3d4e5)');
    expect(errorMessage(t, new ApiError('storage/unauthorized', 403, 'no'))).toBe('Você não tem permissão para isso.');
  });
});
