/**
 * Told to every instance (the coordination bus) when a sign-in ends or a user's rights change,
 * so that what was opened under the old rights (live-update streams) closes everywhere at once.
 */
export interface SignInRevokedEvent {
  type: 'sign-in-revoked';
  /** One sign-in ended (logout, replaced by a new sign-in). */
  authSessionHash?: string;
  /** Every sign-in of this user (disabled, roles changed). */
  email?: string;
}

export function signInRevoked(target: { authSessionHash: string } | { email: string }): SignInRevokedEvent {
  return { type: 'sign-in-revoked', ...target };
}

export function isSignInRevoked(x: unknown): x is SignInRevokedEvent {
  const e = x as Partial<SignInRevokedEvent> | null;
  return !!e && e.type === 'sign-in-revoked' && (typeof e.authSessionHash === 'string' || typeof e.email === 'string');
}
