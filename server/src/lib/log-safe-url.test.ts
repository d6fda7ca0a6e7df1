import { describe, expect, it } from 'vitest';
import { logSafeUrl } from './log-safe-url';

const SECRET = 'Q2hhdmUgc2VjcmV0YSBkZSB1bSBsaW5rIGNvbXBhcnRp';

describe('addresses as logged', () => {
  it('the sign-in’s query strings are dropped', () => {
    expect(logSafeUrl('/api/auth/callback?code=abc&state=def')).toBe('/api/auth/callback?[redacted]');
    expect(logSafeUrl('/oidc/auth?client_id=x&nonce=n')).toBe('/oidc/auth?[redacted]');
  });

  it('a share link’s secret never reaches a log line, wherever it travels', () => {
    for (const url of [
      `/v/${SECRET}`,
      `/api/shared/${SECRET}`,
      `/api/shared/${SECRET}/lap?lap=A3`,
      `/api/shared/${SECRET}/preview.png`,
    ]) {
      expect(logSafeUrl(url)).not.toContain(SECRET);
    }
    expect(logSafeUrl(`/api/shared/${SECRET}/lap?lap=A3`)).toBe('/api/shared/[redacted]/lap?lap=A3');
    expect(logSafeUrl(`/api/sessions/compare?device=1&share=${SECRET}&lap=A1`)).toBe(
      '/api/sessions/compare?device=1&share=[redacted]&lap=A1',
    );
  });

  it('everything else as it came', () => {
    expect(logSafeUrl('/api/sessions?track=Interlagos')).toBe('/api/sessions?track=Interlagos');
    expect(logSafeUrl('/laps')).toBe('/laps');
  });
});
