import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../../core/errors';
import { hashToken } from '../lib/tokens';

/**
 * Who may call a route. Every /api route declares one in `config.access`; registering an /api
 * route without it throws at start-up, so an undeclared route cannot ship.
 */
export type Access = 'public' | 'rider' | 'seller' | 'admin' | 'device';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
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

export interface AuthenticatedDevice {
  id: string;
  owner: string;
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
    if (access === 'public') return;
    if (access === 'device') {
      const header = req.headers.authorization ?? '';
      const token = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header)?.[1];
      const device = token ? await opts.deviceByTokenHash(hashToken(token)) : undefined;
      if (!device) throw new AppError('storage/unauthenticated', 'A valid device token is required (Authorization: Bearer <token>).');
      req.device = device;
      return;
    }
    const id = req.identity;
    if (!id) throw new AppError('storage/unauthenticated');
    if (id.disabled) {
      await opts.signOut(req, reply);
      throw new AppError('auth/user-disabled');
    }
    if (!SAFE_METHODS.has(req.method)) {
      const origin = req.headers.origin;
      if (origin && !opts.allowedOrigins.includes(origin) && origin !== `${req.protocol}://${req.host}`) {
        throw new AppError('storage/unauthorized', 'Cross-origin request refused.');
      }
    }
    if (access === 'rider') return;
    if (access === 'admin' && id.admin) return;
    if (access === 'seller' && id.seller) return;
    throw new AppError('storage/unauthorized');
  });
});
