/**
 * A request's address as it may be logged: the sign-in's own addresses lose their query string,
 * which carries one-time secrets (the authorization `code`, `state`, the PKCE challenge, nonce).
 */
export function logSafeUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const path = url.slice(0, q);
  return path.startsWith('/api/auth/') || path === '/oidc' || path.startsWith('/oidc/') ? `${path}?[redacted]` : url;
}
