// The product spec's storage view ({hardware}/{track}/{ddmmyyyy}/lap.six|gps.six): listing folders and
// reading a file's metadata, with the spec's page-size rule and messages, for sessions the caller may read.
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  MAX_RESULTS_MESSAGES,
  type storageListResponseSchema,
  type storageMetadataSchema,
} from '#core/contracts/sessions.contract.ts';
import { AppError } from '#core/errors.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { gpsColumnsKey } from '../sessions/session-files';
import { findVisibleSession, listVisibleSessions, type Viewer } from '../sessions/sessions.repository';

/** The spec's list page size rule, with its exact messages. */
export function parseMaxResults(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1000;
  if (!/^-?\d+$/.test(raw.trim())) throw new AppError('storage/invalid-argument', MAX_RESULTS_MESSAGES.tooSmall);
  const n = Number(raw);
  if (n < 1) throw new AppError('storage/invalid-argument', MAX_RESULTS_MESSAGES.tooSmall);
  if (n > 1000) throw new AppError('storage/invalid-argument', MAX_RESULTS_MESSAGES.tooLarge);
  return n;
}

/**
 * The old product's storage view ({hardware}/{track}/{ddmmyyyy}/lap.six|gps.six), limited to
 * what the caller may see. Built from the session index, so listing never exposes other riders.
 */
export function createStorageService(deps: { db: Kysely<DB>; blobs: BlobStore; bucket: string }) {
  return {
    async list(
      viewer: Viewer,
      prefixRaw: string,
      maxResults: number,
      pageToken: string | undefined,
    ): Promise<z.infer<typeof storageListResponseSchema>> {
      const prefix = prefixRaw.replace(/^\/+/, '').replace(/\/+$/, '');
      const parts = prefix === '' ? [] : prefix.split('/');
      if (parts.length > 3 || parts.some((p) => p === '' || p === '.' || p === '..')) {
        throw new AppError('storage/invalid-argument', 'Invalid prefix.');
      }
      const sessions = await listVisibleSessions(deps.db, viewer, parts[0]);
      const children = new Set<string>();
      const items: string[] = [];
      for (const s of sessions) {
        const path = [s.device_id, s.track, s.date];
        if (parts.some((p, i) => path[i] !== p)) continue;
        if (parts.length < 3) children.add(path.slice(0, parts.length + 1).join('/'));
        else {
          if (s.gps_md5) items.push(`${path.join('/')}/gps.six`);
          if (s.lap_md5) items.push(`${path.join('/')}/lap.six`);
        }
      }
      const all = [
        ...[...children].map((p) => ({ name: p, prefix: true })),
        ...items.map((p) => ({ name: p, prefix: false })),
      ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      let after = '';
      if (pageToken) {
        try {
          after = Buffer.from(pageToken, 'base64url').toString('utf8');
        } catch {
          throw new AppError('storage/invalid-argument', 'Invalid pageToken.');
        }
      }
      const rest = after ? all.filter((e) => e.name > after) : all;
      const page = rest.slice(0, maxResults);
      const more = rest.length > maxResults;
      return {
        prefixes: page.filter((e) => e.prefix).map((e) => e.name),
        items: page.filter((e) => !e.prefix).map((e) => e.name),
        ...(more ? { nextPageToken: Buffer.from(page.at(-1)!.name, 'utf8').toString('base64url') } : {}),
      };
    },

    async metadata(viewer: Viewer, pathRaw: string): Promise<z.infer<typeof storageMetadataSchema>> {
      const path = pathRaw.replace(/^\/+/, '');
      const m = /^([^/]+)\/([^/]+)\/([^/]+)\/(lap\.six|gps\.six)$/.exec(path);
      if (!m) throw new AppError('storage/object-not-found');
      const row = await findVisibleSession(deps.db, viewer, `${m[1]}/${m[2]}/${m[3]}`);
      if (!row) throw new AppError('storage/object-not-found');
      // An import's gps.six is kept as its columns (made from them when read): their blob's dates, its own size and md5.
      const fromColumns = m[4] === 'gps.six' && Number(row.gps_from_columns) === 1 && row.gps_md5;
      const kept = await deps.blobs.head(fromColumns ? gpsColumnsKey(row.id, row.gps_md5) : path);
      if (!kept) throw new AppError('storage/object-not-found');
      const head = fromColumns
        ? { ...kept, size: Number(row.gps_size), md5Hash: row.gps_md5, contentType: 'text/plain; charset=utf-8' }
        : kept;
      return {
        bucket: deps.bucket,
        generation: head.generation,
        metageneration: '1',
        name: m[4]!,
        fullPath: path,
        size: head.size,
        timeCreated: head.timeCreated,
        updated: head.updated,
        md5Hash: head.md5Hash,
        cacheControl: 'private, no-cache',
        contentDisposition: `inline; filename="${m[4]}"`,
        contentEncoding: 'identity',
        contentLanguage: 'pt-BR',
        contentType: head.contentType,
        customMetadata: { device: row.device_id, track: row.track, date: row.date },
      };
    },
  };
}

export type StorageService = ReturnType<typeof createStorageService>;
