/** A share link's secret in a path: `/v/<secret>`, `/api/shared/<secret>[/…]`. */
const SHARE_PATH = /^(\/v\/|\/api\/shared\/)[^/?]+/;

/**
 * A request's address as it may be logged: the sign-in's own addresses lose their query string,
 * which carries one-time secrets (the authorization `code`, `state`, the PKCE challenge, nonce);
 * a share link's secret is masked wherever it travels (its path, or `share=` of a comparison).
 */
export function logSafeUrl(url: string): string {
  const masked = url.replace(SHARE_PATH, '$1[redacted]').replace(/([?&]share=)[^&]*/, '$1[redacted]');
  const q = masked.indexOf('?');
  if (q < 0) return masked;
  const path = masked.slice(0, q);
  return path.startsWith('/api/auth/') || path === '/oidc' || path.startsWith('/oidc/') ? `${path}?[redacted]` : masked;
}
