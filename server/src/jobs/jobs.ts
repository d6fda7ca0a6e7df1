import { sessionKey } from '../modules/sessions/session-files';
import type { SessionEvents } from '../modules/sessions/session-events.service';
import type { SessionReceiver } from '../modules/sessions/session-receiver.service';
import type { TracksService } from '../modules/tracks/tracks.service';
import type { AuthSessionStore } from '../modules/auth/auth-sessions.service';
import type { JobQueue } from './job-queue';

/** Every background job of the server, by name (the `job` label of the metrics). */
export const JOBS = {
  analyseSession: 'analyse-session',
  recoverUploads: 'recover-uploads',
  settleFigures: 'settle-figures',
  forgetExpiredSignIns: 'forget-expired-sign-ins',
} as const;

/** How long after a session arrives it is analysed (its upload has answered by then, and its other file arrived). */
const ANALYSIS_DELAY_MS = 2_000;
/** How often an interrupted upload is looked for, across all instances. */
const RECOVERY_EVERY_MS = 60_000;
/** How often expired sign-ins are forgotten (they are refused already; this keeps the table small). */
const SIGN_IN_SWEEP_EVERY_MS = 3_600_000;

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Registers the server's background jobs on `queue` and starts offering them. The start-up sweep
 * of interrupted uploads runs here, awaited, so the server never listens with one half done.
 * Returns the function that stops sending new jobs (server close; the queue's stop follows).
 */
export async function startJobs(
  queue: JobQueue,
  deps: {
    receiver: SessionReceiver;
    tracks: Pick<TracksService, 'analyzeArrived' | 'settleStoredFigures' | 'studyArrived'>;
    events: SessionEvents;
    signIns: Pick<AuthSessionStore, 'forgetExpired'>;
    log: Log;
  },
): Promise<() => void> {
  const { receiver, tracks, events, signIns, log } = deps;
  const logged =
    <T>(msg: string, work: (data: T) => Promise<void>) =>
    (data: T) =>
      work(data).catch((err: unknown) => {
        log.warn({ err }, msg);
        throw err;
      });
  const recoverUploads = async () => {
    const r = await receiver.recoverInterruptedUploads();
    if (r.reindexed + r.dropped > 0) log.warn(r, 'finished interrupted uploads');
  };

  // With several instances, one that crashed may never restart: the others finish its uploads.
  // Safe at any time, as recovery takes each file's lock (an upload in flight finishes first).
  await queue.work(JOBS.recoverUploads, logged('upload recovery failed', recoverUploads));
  // One at a time (each holds its trace); a session's uploads within the delay make one job.
  // Its figures settled by its one lap list, a new personal best is announced to its rider then.
  const analyse = async (s: { device: string; track: string; date: string }) => {
    const arrived = await tracks.analyzeArrived(s);
    // Its corner study too, once, so that the coaching read only reads (issue 62).
    await tracks.studyArrived(s);
    if (arrived?.personalBest)
      await events.publish({
        deviceId: s.device,
        track: s.track,
        date: s.date,
        owner: arrived.owner,
        personalBest: arrived.personalBest,
        figuresSettled: true,
      });
  };
  await queue.work(JOBS.analyseSession, logged('background analysis failed', analyse), { retries: 2 });

  // Figures kept by an older rule (decision 028) are settled a few at a time, once across the
  // instances; start-up does not wait, and a stop ends the sweep between two sessions.
  let stopping = false;
  const settle = async () => {
    const n = await tracks.settleStoredFigures(() => stopping);
    if (n > 0) log.info({ sessions: n }, 'lap figures settled by the one lap list');
  };
  await queue.work(JOBS.settleFigures, logged('settling stored lap figures failed', settle));

  const forgetExpiredSignIns = async () => {
    const n = await signIns.forgetExpired(new Date().toISOString());
    if (n > 0) log.info({ signIns: n }, 'expired sign-ins forgotten');
  };
  await queue.work(JOBS.forgetExpiredSignIns, logged('forgetting expired sign-ins failed', forgetExpiredSignIns));

  await recoverUploads();
  await queue.schedule(JOBS.recoverUploads, RECOVERY_EVERY_MS);
  await queue.schedule(JOBS.forgetExpiredSignIns, SIGN_IN_SWEEP_EVERY_MS);
  await queue.send(JOBS.settleFigures, {}, { singletonKey: 'stored' });
  // The instance that received the session sends its analysis (every instance hears the event).
  const stopListening = events.listenOwn((e) => {
    if (e.figuresSettled) return; // the announcement of an analysis: nothing new to analyse
    queue
      .send(
        JOBS.analyseSession,
        { device: e.deviceId, track: e.track, date: e.date },
        { singletonKey: sessionKey(e.deviceId, e.track, e.date), delayMs: ANALYSIS_DELAY_MS },
      )
      .catch((err: unknown) => log.error({ err }, 'background analysis not queued'));
  });
  return () => {
    stopping = true;
    stopListening();
  };
}
