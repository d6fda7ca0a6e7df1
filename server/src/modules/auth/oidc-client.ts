import * as oidc from 'openid-client';

/** The relying-party side of sign-in: the same code for Google and for the local provider. */
export interface IdentityProvider {
  readonly description: string;
  readonly redirectUri: string;
  /** Extra authorization parameters (Google: prompt=select_account). */
  readonly authParams: Record<string, string>;
  configuration(): Promise<oidc.Configuration>;
}

export function createIdentityProvider(opts: {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  description: string;
  authParams?: Record<string, string>;
  /** How discovery and the code exchange reach the provider; openid-client's fetch when absent. */
  backChannel?: oidc.CustomFetch;
}): IdentityProvider {
  let cached: Promise<oidc.Configuration> | undefined;
  const insecure = new URL(opts.issuer).protocol === 'http:';
  return {
    description: opts.description,
    redirectUri: opts.redirectUri,
    authParams: opts.authParams ?? {},
    configuration() {
      // Discovered lazily (the local issuer is this very server) and retried after a failure.
      cached ??= oidc
        .discovery(new URL(opts.issuer), opts.clientId, opts.clientSecret, undefined, {
          execute: insecure ? [oidc.allowInsecureRequests] : [],
          timeout: 30,
          ...(opts.backChannel ? { [oidc.customFetch]: opts.backChannel } : {}),
        })
        .catch((err: unknown) => {
          cached = undefined;
          throw err;
        });
      return cached;
    },
  };
}

export { oidc };
