// The shipped catalogue of circuits: their outlines and start/finish lines, searched by name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { haversineM } from '#core/geo.ts';
import type { Trace } from '#core/tracks/lap-timing.ts';
import { fitOutline, movingSamples } from '#core/tracks/track-match.ts';

const CATALOGUE_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../assets/track-catalogue/tracks.ndjson.gz',
);

/** A circuit of the catalogue (zaggyai/track_data, MIT; assets/track-catalogue). */
export interface CatalogueTrack {
  id: string;
  name: string;
  shortName: string;
  startFinish: [number, number];
  /** [lat, lon] points of its outline. */
  outline: [number, number][];
  /** Bounding box: south, west, north, east (degrees). */
  box: [number, number, number, number];
}

interface Line {
  id: string;
  name: string;
  short_name?: string;
  start_finish: [number, number];
  pts: [number, number][];
}

/** A trace fits a circuit when this share of its moving samples run along the outline, and it covers this much of it. */
const MIN_ON_SHARE = 0.9;
const MIN_COVERAGE = 0.8;
/** Candidates: circuits whose box, widened this much (degrees, ~1 km), holds the trace's middle. */
const BOX_MARGIN_DEG = 0.01;

export interface TrackCatalogue {
  readonly size: number;
  get(id: string): CatalogueTrack | undefined;
  /** Circuits whose name holds the words asked (accents and case ignored), best first. */
  search(query: string, limit?: number): CatalogueTrack[];
  /** The circuit a trace runs along, and whether it runs the outline's way; undefined where none fits. */
  find(trace: Trace): { track: CatalogueTrack; forward: boolean } | undefined;
  /** Circuits whose start/finish lies within `radiusKm` of a point, nearest first, with that distance. */
  near(lat: number, lon: number, radiusKm: number): { track: CatalogueTrack; distanceKm: number }[];
}

/** Lower case without accents: "Autódromo" finds "autodromo". */
function foldName(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function parseCatalogue(ndjson: string): CatalogueTrack[] {
  const tracks: CatalogueTrack[] = [];
  for (const text of ndjson.split('\n')) {
    if (!text.trim()) continue;
    const line = JSON.parse(text) as Line;
    const outline = line.pts.map(([lat, lon]) => [lat * 1e-7, lon * 1e-7] as [number, number]);
    if (outline.length < 2) continue;
    const lats = outline.map((p) => p[0]);
    const lons = outline.map((p) => p[1]);
    tracks.push({
      id: line.id,
      name: line.name,
      shortName: line.short_name ?? '',
      startFinish: [line.start_finish[0] * 1e-7, line.start_finish[1] * 1e-7],
      outline,
      box: [Math.min(...lats), Math.min(...lons), Math.max(...lats), Math.max(...lons)],
    });
  }
  return tracks;
}

export function createTrackCatalogue(tracks: CatalogueTrack[]): TrackCatalogue {
  const byId = new Map(tracks.map((t) => [t.id, t]));
  const folded = tracks.map((t) => ({ track: t, name: foldName(`${t.name} ${t.shortName}`) }));
  return {
    size: tracks.length,
    get: (id) => byId.get(id),
    search(query, limit = 20) {
      const words = foldName(query).split(/\s+/).filter(Boolean);
      if (!words.length) return [];
      return folded
        .filter((f) => words.every((w) => f.name.includes(w)))
        .sort(
          (a, b) =>
            Number(!a.name.startsWith(words[0]!)) - Number(!b.name.startsWith(words[0]!)) ||
            a.track.name.localeCompare(b.track.name),
        )
        .slice(0, limit)
        .map((f) => f.track);
    },
    near(lat, lon, radiusKm) {
      // A cheap box first (1° of latitude ≈ 111 km), then the true distance.
      const dLat = radiusKm / 111;
      const dLon = radiusKm / (111 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
      const out: { track: CatalogueTrack; distanceKm: number }[] = [];
      for (const track of tracks) {
        const [sLat, sLon] = track.startFinish;
        if (Math.abs(sLat - lat) > dLat || Math.abs(sLon - lon) > dLon) continue;
        const distanceKm = haversineM(lat, lon, sLat, sLon) / 1000;
        if (distanceKm <= radiusKm) out.push({ track, distanceKm });
      }
      return out.sort((a, b) => a.distanceKm - b.distanceKm);
    },
    find(trace) {
      const samples = movingSamples(trace);
      if (samples.length < 10) return undefined;
      const mid = samples[Math.floor(samples.length / 2)]!;
      const lat = trace.lat[mid]!;
      const lon = trace.lon[mid]!;
      let best: { track: CatalogueTrack; forward: boolean; score: number } | undefined;
      for (const track of tracks) {
        const [s, w, n, e] = track.box;
        if (
          lat < s - BOX_MARGIN_DEG ||
          lat > n + BOX_MARGIN_DEG ||
          lon < w - BOX_MARGIN_DEG ||
          lon > e + BOX_MARGIN_DEG
        )
          continue;
        const fit = fitOutline(trace, track.outline, samples);
        if (fit.onShare < MIN_ON_SHARE || fit.coverage < MIN_COVERAGE) continue;
        // Of the layouts that fit (a circuit's old and new ones), the one the trace follows closest.
        const score = fit.onShare * fit.coverage - fit.meanDistanceM / 1000;
        if (!best || score > best.score) best = { track, forward: fit.forward, score };
      }
      return best && { track: best.track, forward: best.forward };
    },
  };
}

let shipped: TrackCatalogue | undefined;

/** The shipped catalogue, read on first use (it is large: no start-up pays for it). */
export function trackCatalogue(): TrackCatalogue {
  shipped ??= createTrackCatalogue(parseCatalogue(gunzipSync(readFileSync(CATALOGUE_FILE)).toString('utf8')));
  return shipped;
}
