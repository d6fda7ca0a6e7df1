// Share links' use cases: making a link to one of a rider's sessions or laps, listing and revoking
// them, and what a link opens (its view, a lap, the preview's text and image).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { createShareBodySchema, SharedLap, SharedView } from '#core/contracts/shares.contract.ts';
import { MAX_SHARES_PER_RIDER, SHARE_TOKEN } from '#core/contracts/shares.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { AppError } from '#core/errors.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import type { Language } from '#core/i18n/intl.ts';
import type { LapFigures } from '#core/laps/lap-math.ts';
import type { DB } from '#server/db/schema.ts';
import { translate } from '#server/lib/i18n.ts';
import { SecretBox } from '#server/lib/secret-box.ts';
import { hashToken, newToken, nowIso } from '#server/lib/tokens.ts';
import { trackPreviewPng } from '#server/lib/track-png.ts';
import type { SessionReader } from '../sessions/session-reader.service';
import type { Viewer } from '../sessions/sessions.repository';
import type { TracksService } from '../tracks/tracks.service';
import { countShares, deleteShare, findLiveShare, insertShare, listShares } from './shares.repository';

/** What a valid link opens. */
export interface OpenedShare {
  address: SessionAddress;
  /** 'A3', or null for the whole session. */
  lap: string | null;
  /** What the rider called the link. */
  name: string | null;
  figures: LapFigures | null;
}

/**
 * Links a rider makes to one session or lap: read-only, no sign-in. A link is found by the hash of
 * its secret; the secret itself is kept only sealed with SECRET_KEY (as Wi-Fi passwords are), so
 * its rider can copy it again and a leaked database alone opens nothing. Every read looks the hash
 * up, so a revoked (deleted) or expired link stops at once on every instance.
 */
export function createSharesService(deps: {
  db: Kysely<DB>;
  reader: SessionReader;
  tracks: TracksService;
  publicUrl: string;
  secretKey: string;
}) {
  const { db } = deps;
  const box = new SecretBox(deps.secretKey, 'share-link');
  const urlOf = (token: string) => `${deps.publicUrl}/v/${token}`;
  /** The link again, or null when it cannot be (made before links were sealed, or SECRET_KEY changed). */
  const reopen = (id: string, sealed: string | null) => {
    if (!sealed) return null;
    try {
      return urlOf(box.open(sealed, id));
    } catch {
      return null;
    }
  };

  /** 404 for a link that never existed, was revoked, expired, or whose session is gone: one answer for all. */
  async function open(token: string): Promise<OpenedShare> {
    const row = SHARE_TOKEN.test(token) ? await findLiveShare(db, hashToken(token), nowIso()) : undefined;
    if (!row)
      throw new AppError('storage/object-not-found', 'No such link (it may have been revoked or have expired).');
    return {
      address: { device: row.device_id, track: row.track, date: row.date },
      lap: row.lap,
      name: row.name,
      figures: row.lap_figures ? (JSON.parse(row.lap_figures) as LapFigures) : null,
    };
  }

  return {
    open,

    async create(viewer: Viewer, body: z.infer<typeof createShareBodySchema>) {
      const address = { device: body.device, track: body.track, date: body.date };
      const session = await deps.reader.sessionOf(viewer, address);
      // Only a session's rider shares it (an admin reading it does not).
      if (session.owner !== viewer.email)
        throw new AppError('storage/unauthorized', 'Only the rider whose session it is may share it.');
      if ((await countShares(db, viewer.email)) >= MAX_SHARES_PER_RIDER) throw new AppError('share/limit-reached');
      // The lap must exist (a complete lap of the session), and the session must have a GPS trace to show.
      await deps.tracks.sharedLap(address, body.lap);
      const token = newToken();
      const now = new Date();
      const expiresAt = body.expiresInDays
        ? new Date(now.getTime() + body.expiresInDays * 86_400_000).toISOString()
        : null;
      const id = `sh${randomBytes(8).toString('hex')}`;
      await insertShare(db, {
        id,
        token_hash: hashToken(token),
        owner_email: viewer.email,
        session_id: session.id,
        lap: body.lap ?? null,
        name: body.name || null,
        sealed_token: box.seal(token, id),
        created_at: now.toISOString(),
        expires_at: expiresAt,
      });
      return { id, url: urlOf(token), expiresAt };
    },

    async list(viewer: Viewer) {
      const rows = await listShares(db, viewer.email);
      return {
        shares: rows.map((r) => ({
          id: r.id,
          track: r.track,
          date: r.date,
          lap: r.lap,
          name: r.name,
          createdAt: r.created_at,
          expiresAt: r.expires_at,
          url: reopen(r.id, r.sealed_token),
        })),
      };
    },

    async revoke(viewer: Viewer, id: string) {
      if (!(await deleteShare(db, viewer.email, id)))
        throw new AppError('storage/object-not-found', 'No such link of yours.');
      return { ok: true as const };
    },

    /** The shared session's laps and figures (only the one lap, for a lap's link); nothing about whose it is. */
    async view(token: string): Promise<SharedView> {
      const share = await open(token);
      const session = await deps.tracks.sharedSession(share.address);
      const laps = share.lap ? session.laps.filter((l) => `${l.heat}${l.number}` === share.lap) : session.laps;
      const timed = laps.filter((l) => l.kind === 'flying' && l.sectorSeconds.length > 0);
      const tops = laps.flatMap((l) => (l.topKmh === null ? [] : [l.topKmh]));
      return {
        track: share.address.track,
        date: share.address.date,
        lap: share.lap,
        name: share.name,
        laps,
        bestSectorSeconds: (timed[0]?.sectorSeconds ?? []).map((_, k) =>
          Math.min(...timed.map((l) => l.sectorSeconds[k] ?? Infinity)),
        ),
        topSpeedKmh: tops.length ? Math.max(...tops) : null,
        bestLapSeconds: share.lap ? (laps[0]?.seconds ?? null) : session.bestLapSeconds,
        idealLapSeconds: share.lap ? null : session.idealLapSeconds,
        consistencyMs: share.lap ? null : (share.figures?.consistencyMs ?? null),
        corners: session.corners,
        lengthM: session.lengthM,
      };
    },

    /** One lap of the link on the position grid: the shared lap, or (a session's link) any of its laps, the best by default. */
    async lap(token: string, key: string | undefined): Promise<SharedLap> {
      const share = await open(token);
      if (share.lap && key !== undefined && key !== share.lap)
        throw new AppError('storage/object-not-found', 'No such complete lap in this session.');
      return deps.tracks.sharedLap(share.address, share.lap ?? key);
    },

    /** The link preview's title, description (in the language of who opens it) and image (PNG, no words). */
    async preview(token: string, language: Language) {
      const t = translate(language);
      const share = await open(token);
      const lap = await deps.tracks.sharedLap(share.address, share.lap ?? undefined);
      const [d, m, y] = [share.address.date.slice(0, 2), share.address.date.slice(2, 4), share.address.date.slice(4)];
      const time = formatLapTime(Math.round(lap.seconds * 1000));
      return {
        title: `${share.address.track} · ${d}/${m}/${y}`,
        description: share.lap ? t('history.previewLap', { lap: share.lap, time }) : t('history.previewBest', { time }),
        image: async () => trackPreviewPng(await deps.tracks.outline(share.address), time),
      };
    },
  };
}

export type SharesService = ReturnType<typeof createSharesService>;
