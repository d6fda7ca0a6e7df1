// The caller as a session reader, and the one device check for routes with a device in their path.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#core/errors.ts';
import type { SessionReader } from './session-reader.service';
import type { Viewer } from './sessions.repository';

/** The signed-in caller as a reader of sessions. */
export function viewerOf(req: FastifyRequest): Viewer {
  return { email: req.identity!.email, admin: req.identity!.admin };
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
