// Session events (an upload, a personal best) across instances, for the live routes.
import { EventEmitter } from 'node:events';
import { isImportCollection } from '#core/contracts/session-paths.ts';
import type { Coordination } from '#server/db/coordination.ts';
import { DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';
import type { Viewer } from './sessions.repository';

/** A session was uploaded or replaced, on any instance. */
export interface SessionEvent {
  type: 'session-updated';
  deviceId: string;
  track: string;
  date: string;
  owner: string;
  /** The session's best lap beat its rider's record at the track (theirs alone to hear). */
  personalBest?: { lapTimeMs: number; previousMs: number } | undefined;
  /** Sent once the session's figures are settled by its one lap list (not a file arriving: nothing to analyse). */
  figuresSettled?: true | undefined;
}

function isSessionEvent(x: unknown): x is SessionEvent {
  const e = x as Partial<SessionEvent> | null;
  return (
    !!e &&
    e.type === 'session-updated' &&
    typeof e.deviceId === 'string' &&
    typeof e.track === 'string' &&
    typeof e.date === 'string' &&
    typeof e.owner === 'string'
  );
}

/**
 * The live-update bus: session events of every instance (through the coordination bus), heard
 * here by the live routes and filtered per viewer like reads are.
 */
export function createSessionEvents(coordination: Coordination) {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  // This instance's own events: the work they start is done once, not once per instance hearing them.
  const own = new EventEmitter();
  const unsubscribe = coordination.subscribe((payload) => {
    if (isSessionEvent(payload)) local.emit('session', payload);
  });
  return {
    /** Best effort: a live update that does not go out loses nothing (the screens reload on the next one). */
    publish(event: Omit<SessionEvent, 'type'>) {
      const e = { type: 'session-updated', ...event } satisfies SessionEvent;
      own.emit('session', e);
      return coordination.publish(e).catch(() => undefined);
    },
    listen(listener: (event: SessionEvent) => void): () => void {
      local.on('session', listener);
      return () => local.off('session', listener);
    },
    /** Hears the events this instance publishes only (a session it received). */
    listenOwn(listener: (event: SessionEvent) => void): () => void {
      own.on('session', listener);
      return () => own.off('session', listener);
    },
    /**
     * Whether an event concerns this viewer, by the rule reads follow: the session's owner, the demo
     * device's viewers, and admins for device sessions (an import is its importer's alone).
     */
    concerns: (viewer: Viewer, event: SessionEvent) =>
      event.owner === viewer.email ||
      event.deviceId === DEMO_DEVICE_ID ||
      (viewer.admin && !isImportCollection(event.deviceId)),
    /** Stops hearing other instances' events (server close). */
    stop: unsubscribe,
  };
}

export type SessionEvents = ReturnType<typeof createSessionEvents>;
