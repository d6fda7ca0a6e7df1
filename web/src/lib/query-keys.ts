// Every query key of the web app, made here and nowhere else (issue 63): a key written twice is a
// cache shared by accident. Each key starts with its resource's name, and a resource's `all` is
// the prefix that refreshes every answer of it; lint (eslint.config.js) refuses a key written out
// as an array anywhere else.
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import type { Units } from '#core/units.ts';

type Address = SessionAddress | null | undefined;

/** A session's place in its keys: one session's answers are refreshed together (live updates). */
const at = (s: Address) => [s?.device, s?.track, s?.date] as const;

/** The session answers a new file changes, by resource: `queryKeys.<name>.of(session)`. */
const sessionResource = <Name extends string>(name: Name) => ({
  all: [name] as const,
  of: (s: Address) => [name, ...at(s)] as const,
});

export const queryKeys = {
  me: ['me'] as const,
  preferences: ['me', 'preferences'] as const,
  /** The rider's latest session (what /laps and home open on). */
  latestSession: ['latest'] as const,
  tracks: {
    all: ['tracks'] as const,
    of: (device: string | undefined) => ['tracks', device] as const,
  },
  dates: {
    all: ['dates'] as const,
    of: (device: string | undefined, track: string | undefined) => ['dates', device, track] as const,
  },
  laps: sessionResource('laps'),
  analysis: sessionResource('analysis'),
  gpsColumns: sessionResource('gps-columns'),
  trackLapTimes: sessionResource('track-lap-times'),
  sessionVideos: sessionResource('session-videos'),
  trackAnalysis: {
    all: ['track-analysis'] as const,
    of: (s: Address, chosen: { lap?: number; reference?: number }) =>
      ['track-analysis', ...at(s), chosen.lap ?? null, chosen.reference ?? null] as const,
  },
  coaching: {
    all: ['coaching'] as const,
    of: (s: Address, chosen: { lap?: string; ref?: string }, units: Units) =>
      ['coaching', ...at(s), chosen.lap ?? null, chosen.ref ?? null, units] as const,
  },
  /** The rider's sessions across devices and imports (GET /api/sessions), newest first. */
  mySessions: {
    all: ['my-sessions'] as const,
    /** The newest `limit` sessions, one answer. */
    newest: (limit: number) => ['my-sessions', 'newest', limit] as const,
    /** Page after page of `pageSize` sessions, at one track or all (''). */
    pages: (track: string, pageSize: number) => ['my-sessions', 'pages', track, pageSize] as const,
  },
  records: ['records'] as const,
  progress: {
    all: ['progress'] as const,
    of: (track: string | null) => ['progress', track] as const,
  },
  cornerProgress: (track: string | null, from: string | null, to: string | null) =>
    ['corner-progress', track, from, to] as const,
  compare: (query: string | undefined) => ['compare', query] as const,
  shares: ['shares'] as const,
  shared: (token: string) => ['shared', token] as const,
  sharedLap: (token: string, lap: string | null) => ['shared-lap', token, lap] as const,
  /** The circuit catalogue searched by name. */
  catalogue: (asked: string) => ['catalogue', asked] as const,
  importStorage: ['import-storage'] as const,
  /** Everything the admin pages read: any admin change reloads them all. */
  admin: {
    all: ['admin'] as const,
    list: (name: 'users' | 'sellers' | 'devices' | 'audit' | 'tracks') => ['admin', name] as const,
    track: (id: string | null) => ['admin', 'track', id] as const,
    fleet: ['admin', 'fleet'] as const,
    deviceHealth: (id: string | null) => ['admin', 'device-health', id] as const,
    firmware: ['admin', 'firmware'] as const,
    rollouts: ['admin', 'rollouts'] as const,
    cohorts: ['admin', 'cohorts'] as const,
  },
  /** Everything a seller's page reads: a hand-over reloads it all. */
  seller: {
    all: ['seller'] as const,
    buyers: ['seller', 'buyers'] as const,
    stock: ['seller', 'stock'] as const,
    fleet: ['seller', 'fleet'] as const,
  },
};
