import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#core/errors.ts';
import { hashToken } from '../lib/tokens';

/**
 * Who may call a route. Every /api route declares one in `config.access`; registering an /api
 * route without it throws at start-up, so an undeclared route cannot ship.
 */
export type Access = 'public' | 'rider' | 'seller' | 'admin' | 'device' | 'metrics';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * A public route that still changes the caller's sign-in (logout): its cookie-authenticated
     * calls get the same Origin check as non-public changes.
     */
    changesSignIn?: boolean;
  }
  interface FastifyInstance {
    /** Every route registered after the policy plugin, with its rule: the authorization matrix's input. */
    accessRules: AccessRule[];
  }
}

export interface AccessRule {
  method: string;
  url: string;
  access: Access;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a refused caller must send instead (a device or a script reads these). */
const UNAUTHENTICATED_MESSAGES: Partial<Record<Access, string>> = {
  device: 'A valid device token is required (Authorization: Bearer <token>).',
  metrics:
    "Metrics need the operators' token (Authorization: Bearer <METRICS_TOKEN>), or read them on METRICS_PORT from this machine.",
};

/** Whether `Authorization: Bearer <token>` carries `expected`, compared in constant time. */
function bearerMatches(header: string | undefined, expected: string | undefined): boolean {
  if (!expected) return false;
  const given = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  return (
    given !== undefined &&
    timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest())
  );
}

export interface Subject {
  /** The signed-in user, if any (from the session cookie). */
  user: { admin: boolean; seller: boolean; disabled: boolean } | null;
  /** The device whose valid token came with the request, if any, with its owner's state. */
  device: { ownerDisabled: boolean } | null;
  /** Whether the request carried the operators' METRICS_TOKEN. */
  metricsToken?: boolean;
}

export type Decision = 'allow' | 'unauthenticated' | 'disabled' | 'forbidden';

/** The policy itself, pure: which subject may call a route with this access rule. */
export function decide(access: Access, subject: Subject): Decision {
  if (access === 'public') return 'allow';
  if (access === 'metrics') return subject.metricsToken ? 'allow' : 'unauthenticated';
  if (access === 'device')
    return !subject.device ? 'unauthenticated' : subject.device.ownerDisabled ? 'disabled' : 'allow';
  if (!subject.user) return 'unauthenticated';
  if (subject.user.disabled) return 'disabled';
  if (access === 'rider') return 'allow';
  if (access === 'admin') return subject.user.admin ? 'allow' : 'forbidden';
  return subject.user.seller ? 'allow' : 'forbidden';
}

/** What the track rules look at: whose a track is, and where it comes from. */
export interface TrackOwnership {
  source: string;
  /** 1: everyone's; 0: `created_by`'s own. */
  shared: number;
  created_by: string;
}

/**
 * Whether a rider's traces may be matched to a track (and their sessions named after it): an
 * everyone's track, or one derived from their own traces. Another rider's derived track never
 * is, so no rider can take a circuit (or a session's name) from the others.
 */
export function mayRideTrack(rider: string, track: TrackOwnership): boolean {
  return track.shared === 1 || track.created_by === rider;
}

/** Whether a user may rename a track: an admin any; a rider only a derived track still their own (a shared one is admin-curated). */
export function mayRenameTrack(user: { email: string; admin: boolean }, track: TrackOwnership): boolean {
  return user.admin || (track.source === 'derived' && track.shared === 0 && track.created_by === user.email);
}

/** Only a derived track can be made everyone's or a rider's own again (catalogue and bundled ones are everyone's). */
export function maySetTrackShared(user: { admin: boolean }, track: TrackOwnership): boolean {
  return user.admin && track.source === 'derived';
}

/** The track rules, handed to the tracks service by app.ts (services import no plugin). */
export const trackRules = { mayRideTrack, mayRenameTrack, maySetTrackShared };
export type TrackRules = typeof trackRules;

interface AuthenticatedDevice {
  id: string;
  owner: string;
  ownerDisabled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on 'device' routes once the bearer token matched a device. */
    device: AuthenticatedDevice | null;
  }
}

export interface PolicyOptions {
  /** Origins allowed to make cookie-authenticated changes (CSRF defence beside SameSite=Lax). */
  allowedOrigins: string[];
  /** Looks a device up by the sha256 of its bearer token. */
  deviceByTokenHash(hash: string): Promise<AuthenticatedDevice | undefined>;
  signOut(req: FastifyRequest, reply: import('fastify').FastifyReply): Promise<void>;
  /** METRICS_TOKEN: the bearer token `GET /metrics` needs (none set: nobody gets the metrics there). */
  metricsToken?: string | undefined;
}

export const policyPlugin = fp(async (app: FastifyInstance, opts: PolicyOptions) => {
  app.decorateRequest('device', null);
  const rules: AccessRule[] = [];
  app.decorate('accessRules', rules);
  app.addHook('onRoute', (route) => {
    let access = route.config?.access;
    if (!access) {
      const isApi = route.url.startsWith('/api/') && !route.url.startsWith('/api/docs');
      if (isApi) throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule (config.access)`);
      access = 'public';
      route.config = { ...(route.config ?? {}), access };
    }
    for (const method of [route.method].flat()) rules.push({ method: String(method), url: route.url, access });
  });

  // onRequest: decided before the body is parsed or validated, so a refused caller learns nothing.
  app.addHook('onRequest', async (req, reply) => {
    const access = req.routeOptions.config.access ?? 'public';
    let device: AuthenticatedDevice | undefined;
    if (access === 'device') {
      const token = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(req.headers.authorization ?? '')?.[1];
      device = token ? await opts.deviceByTokenHash(hashToken(token)) : undefined;
    }
    const id = req.identity;
    const metricsToken = access === 'metrics' && bearerMatches(req.headers.authorization, opts.metricsToken);
    const decision = decide(access, {
      user: id ? { admin: id.admin, seller: id.seller, disabled: id.disabled } : null,
      device: device ? { ownerDisabled: device.ownerDisabled } : null,
      metricsToken,
    });
    if (decision === 'unauthenticated') {
      throw new AppError('storage/unauthenticated', UNAUTHENTICATED_MESSAGES[access]);
    }
    if (decision === 'disabled') {
      if (access === 'device')
        throw new AppError(
          'auth/user-disabled',
          "This device's owner account is disabled: it may neither upload nor read its configuration.",
        );
      await opts.signOut(req, reply);
      throw new AppError('auth/user-disabled');
    }
    if (decision === 'forbidden') throw new AppError('storage/unauthorized');
    if (device) {
      req.device = device;
      return;
    }
    // Cookie-authenticated changes must come from our own origin (CSRF, beside SameSite=Lax),
    // logout too: a same-site page must not be able to sign a rider out. (Other public POSTs, the
    // bundled provider's sign-in form among them, change no sign-in of ours; a form posted from a
    // page with Referrer-Policy no-referrer says Origin: null.)
    if (!SAFE_METHODS.has(req.method) && (access !== 'public' || req.routeOptions.config.changesSignIn)) {
      const origin = req.headers.origin;
      if (origin && !opts.allowedOrigins.includes(origin) && origin !== `${req.protocol}://${req.host}`) {
        throw new AppError('storage/unauthorized', 'Cross-origin request refused.');
      }
    }
  });
});
