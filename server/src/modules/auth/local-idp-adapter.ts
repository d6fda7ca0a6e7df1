import type { Adapter, AdapterPayload } from 'oidc-provider';

/**
 * The local provider's storage, on oidc-provider's documented Adapter interface: what it
 * remembers (interactions, sessions, grants, codes) is kept until it expires and not before. The
 * provider's own in-memory adapter keeps the last 1,000 entries: with 200 riders signing in at
 * once it evicted authorization codes before their exchange (invalid_grant).
 */
/** The models a grant issues (as oidc-provider's own adapter counts them). */
const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
]);

export class ExpiringStore {
  private readonly entries = new Map<string, { payload: AdapterPayload; expiresAt: number }>();
  /** A provider session's id by its uid (findByUid). */
  private readonly sessionByUid = new Map<string, string>();
  /** What each grant issued (codes and tokens, not the interactions or sessions that name it), to revoke with it. */
  private readonly byGrant = new Map<string, Set<string>>();
  private writes = 0;

  get(key: string): AdapterPayload | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) {
      this.delete(key);
      return undefined;
    }
    return entry?.payload;
  }

  set(key: string, payload: AdapterPayload, expiresInSeconds: number | undefined): void {
    this.delete(key);
    this.entries.set(key, {
      payload,
      expiresAt: expiresInSeconds === undefined ? Infinity : Date.now() + expiresInSeconds * 1000,
    });
    if (payload.uid && key.startsWith('Session:')) this.sessionByUid.set(payload.uid, key);
    if (payload.grantId && GRANTABLE.has(key.slice(0, key.indexOf(':')))) {
      let issued = this.byGrant.get(payload.grantId);
      if (!issued) this.byGrant.set(payload.grantId, (issued = new Set()));
      issued.add(key);
    }
    if (++this.writes % 1000 === 0) this.sweep();
  }

  delete(key: string): void {
    const payload = this.entries.get(key)?.payload;
    this.entries.delete(key);
    if (!payload) return;
    if (payload.uid && this.sessionByUid.get(payload.uid) === key) this.sessionByUid.delete(payload.uid);
    if (payload.grantId) this.byGrant.get(payload.grantId)?.delete(key);
  }

  findSessionByUid(uid: string): AdapterPayload | undefined {
    const key = this.sessionByUid.get(uid);
    return key === undefined ? undefined : this.get(key);
  }

  revokeGrant(grantId: string): void {
    for (const key of this.byGrant.get(grantId) ?? []) this.delete(key);
    this.byGrant.delete(grantId);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Drops what has expired (every 1,000 writes). */
  sweep(): void {
    const now = Date.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.delete(key);
  }

  /** The Adapter oidc-provider asks for, per model ('Session', 'AuthorizationCode', …). */
  adapter(model: string): Adapter {
    const key = (id: string) => `${model}:${id}`;
    return {
      upsert: async (id, payload, expiresIn) => this.set(key(id), payload, expiresIn),
      find: async (id) => this.get(key(id)),
      findByUid: async (uid) => this.findSessionByUid(uid),
      // No device flow here: nothing is stored by user code.
      findByUserCode: async () => undefined,
      consume: async (id) => {
        const payload = this.get(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => this.delete(key(id)),
      revokeByGrantId: async (grantId) => this.revokeGrant(grantId),
    };
  }
}
