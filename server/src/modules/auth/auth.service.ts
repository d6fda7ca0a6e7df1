import type { Kysely } from 'kysely';
import type { ErrorCode } from '#core/errors.ts';
import type { DB } from '#server/db/schema.ts';
import { nowIso } from '#server/lib/tokens.ts';
import { findUser, upsertUserAtSignIn } from '../users/users.repository';
import { deleteFlowsBefore, insertFlow, takeFlow } from './auth-sessions.repository';
import { oidc, type IdentityProvider } from './oidc-client';

/** How long a sign-in may take between leaving for the provider and coming back. */
export const FLOW_TTL_MS = 10 * 60 * 1000;

/** A sign-in that did not succeed: the code the rider sees, and the reason for the log. */
export class SignInError extends Error {
  constructor(
    readonly code: ErrorCode,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * The sign-in rules: an OpenID Connect code + PKCE flow whose state lives in the database (any
 * instance may receive the callback), a verified e-mail, no sign-in for a disabled user, and
 * ADMIN_EMAILS made admins. The routes turn its answers into cookies and redirects.
 */
export function createAuthService(deps: { db: Kysely<DB>; idp: IdentityProvider; adminEmails: string[] }) {
  const { db, idp } = deps;
  return {
    /** Starts a flow: where to send the browser, and the state to bind to it (a cookie). */
    async begin(mode: string): Promise<{ url: URL; state: string }> {
      let config: oidc.Configuration;
      try {
        config = await idp.configuration();
      } catch (err) {
        throw new SignInError('auth/network-request-failed', `identity provider discovery failed: ${String(err)}`);
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
      await deleteFlowsBefore(db, new Date(Date.now() - FLOW_TTL_MS).toISOString());
      await insertFlow(db, { state, codeVerifier, nonce, mode, createdAt: nowIso() });
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: idp.redirectUri,
        scope: 'openid email profile',
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        state,
        nonce,
        ...idp.authParams,
      });
      return { url, state };
    },

    /** Takes the flow out (a replayed callback finds nothing); its mode tells where the browser lands. */
    takeFlow: (state: string | undefined) => (state ? takeFlow(db, state) : Promise.resolve(undefined)),

    /**
     * Finishes a flow taken with takeFlow: checks it, exchanges the code, and returns the signed-in
     * user's e-mail (created on first sign-in). Throws SignInError with the rider's code.
     */
    async complete(input: {
      flow: Awaited<ReturnType<typeof takeFlow>>;
      state: string | undefined;
      browserState: string | undefined;
      providerError: string | undefined;
      callbackUrl: URL;
    }): Promise<string> {
      const { flow, state } = input;
      if (!state || !flow) throw new SignInError('auth/invalid-credential', 'unknown, expired or replayed state');
      if (input.browserState !== state)
        throw new SignInError('auth/invalid-credential', 'state not bound to this browser');
      if (Date.parse(flow.created_at) < Date.now() - FLOW_TTL_MS)
        throw new SignInError('auth/user-token-expired', 'sign-in took too long');
      if (input.providerError) {
        const code: ErrorCode =
          input.providerError === 'access_denied' ? 'auth/popup-closed-by-user' : 'auth/operation-not-allowed';
        throw new SignInError(code, `provider error ${input.providerError}`);
      }
      let config: oidc.Configuration;
      try {
        config = await idp.configuration();
      } catch (err) {
        throw new SignInError('auth/network-request-failed', String(err));
      }
      let claims: oidc.IDToken | undefined;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, {
          pkceCodeVerifier: flow.code_verifier,
          expectedState: state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (err) {
        const network = err instanceof TypeError || (err as { code?: string }).code === 'OAUTH_TIMEOUT';
        // The provider's own words (e.g. invalid_grant and why) for the log; never the code itself.
        const said = err as { error?: unknown; error_description?: unknown };
        const detail =
          typeof said.error === 'string'
            ? `: ${said.error} ${typeof said.error_description === 'string' ? said.error_description : ''}`
            : '';
        throw new SignInError(
          network ? 'auth/network-request-failed' : 'auth/invalid-credential',
          `${String(err)}${detail}`,
        );
      }
      const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
      if (!email || claims?.email_verified === false)
        throw new SignInError('auth/invalid-credential', 'no verified e-mail in the ID token');
      const existing = await findUser(db, email);
      if (existing?.disabled) throw new SignInError('auth/user-disabled', 'user is disabled');
      const displayName =
        typeof claims?.name === 'string' && claims.name.trim()
          ? claims.name.trim().slice(0, 120)
          : email.split('@')[0]!;
      const avatarUrl = typeof claims?.picture === 'string' && /^https:\/\//.test(claims.picture) ? claims.picture : '';
      await upsertUserAtSignIn(db, { email, displayName, avatarUrl, makeAdmin: deps.adminEmails.includes(email) });
      return email;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
