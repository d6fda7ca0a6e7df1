// The caller as a session reader, and the one device and session check for routes with them in their path.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import type { SessionReader } from './session-reader.service';
import type { Viewer } from './sessions.repository';

/** The signed-in caller as a reader of sessions. */
export function viewerOf(req: FastifyRequest): Viewer {
  return { email: req.identity!.email, admin: req.identity!.admin };
}

/** The session a `/api/devices/:id/sessions/:track/:date` path names. */
export function sessionAt(p: { id: string; track: string; date: string }): SessionAddress {
  return { device: p.id, track: p.track, date: p.date };
}

/**
 * preValidation for a session route with a body: a session the caller may not see is 404 before
 * its body is looked at, as for every session route.
 */
export function hideUnseenSession(reader: SessionReader) {
  return async (req: FastifyRequest): Promise<void> => {
    const params = req.params as { id: string; track: string; date: string };
    if (!(await reader.canSeeSession(viewerOf(req), sessionAt(params)))) throw new AppError('storage/object-not-found');
  };
}

/**
 * One device check for every route of a plugin with an `:id` device parameter: admins, the demo
 * device, the current owner, or a previous owner who holds sessions on it. Anyone else gets 404
 * (no hint the device exists). preValidation: before any validation error could tell a stranger
 * something about the route.
 */
export function hideUnseenDevices(app: FastifyInstance, reader: SessionReader): void {
  app.addHook('preValidation', async (req) => {
    const id = (req.params as { id?: string }).id;
    if (!id || !req.identity) return;
    if (!(await reader.canSeeDevice(viewerOf(req), id))) throw new AppError('storage/object-not-found');
  });
}
