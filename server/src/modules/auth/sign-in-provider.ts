// Which OpenID provider riders sign in with: Google when it is configured, else the bundled local
// provider (development, demo, tests), served by this very server.
import type { AppConfig } from '#server/config.ts';
import { createLocalIdp, type LocalIdp } from './local-idp';
import { createIdentityProvider, type IdentityProvider } from './oidc-client';

interface SignInProvider {
  idp: IdentityProvider;
  /** The bundled provider, whose pages the app serves; none with Google. */
  localIdp: LocalIdp | undefined;
  /** Where the provider sends the browser back. */
  redirectUri: string;
}

export function chooseSignInProvider(config: AppConfig): SignInProvider {
  const redirectUri = `${config.publicUrl}/api/auth/callback`;
  if (config.google)
    return {
      idp: createIdentityProvider({
        issuer: 'https://accounts.google.com',
        ...config.google,
        redirectUri,
        description: 'Google (accounts.google.com)',
        authParams: { prompt: 'select_account' },
      }),
      localIdp: undefined,
      redirectUri,
    };
  const localIdp = createLocalIdp({
    publicUrl: config.publicUrl,
    redirectUri,
    production: config.production,
    trustProxy: config.trustProxy !== false,
  });
  const idp = createIdentityProvider({
    issuer: localIdp.issuer,
    clientId: localIdp.clientId,
    clientSecret: localIdp.clientSecret,
    redirectUri,
    description: `local OpenID provider ${localIdp.issuer}`,
    backChannel: localIdp.backChannel,
    // Always show the sign-in page, so switching between demo accounts works after logout.
    authParams: { prompt: 'login' },
  });
  return { idp, localIdp, redirectUri };
}
