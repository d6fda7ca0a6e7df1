import type { Generated } from 'kysely';

/** Table types. Timestamps are ISO-8601 UTC text so both dialects store them alike. */
export interface UsersTable {
  email: string;
  display_name: Generated<string>;
  avatar_url: Generated<string>;
  /** '1' marks an admin (the spec's value). */
  adm: Generated<string>;
  /** Non-empty marks a seller. */
  seller: Generated<string>;
  wifi: Generated<string>;
  /** Wi-Fi password, AES-256-GCM encrypted (see lib/secret-box.ts); '' when unset. */
  senha_enc: Generated<string>;
  nome_piloto: Generated<string>;
  numero_moto: Generated<string>;
  user_seller: Generated<string>;
  disabled: Generated<number>;
  /** 'pt-BR' | 'en' | 'es'; null until the rider chooses (the request's languages decide). */
  language: string | null;
  /** 'metric' | 'imperial'; null until the rider chooses. */
  units: string | null;
  /** '' | 'internal' | 'beta': which early firmware cohort an admin put the user in. */
  firmware_cohort: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface DevicesTable {
  id: string;
  owner_email: Generated<string>;
  seller_email: Generated<string>;
  up: Generated<string>;
  version: Generated<string>;
  name: Generated<string>;
  token_hash: Generated<string | null>;
  last_seen_at: Generated<string | null>;
  created_at: string;
  /** The latest check-in (issue 61); null until the device checks in. */
  hardware_class: Generated<string | null>;
  firmware_slot: Generated<string | null>;
  pending_verify: Generated<number | null>;
  battery: Generated<number | null>;
  charging: Generated<number | null>;
  free_storage_kb: Generated<number | null>;
  queued_sessions: Generated<number | null>;
  last_upload_error: Generated<string | null>;
  reset_reason: Generated<string | null>;
  rssi: Generated<number | null>;
  uptime_s: Generated<number | null>;
  checked_in_at: Generated<string | null>;
}

interface DeviceHealthTable {
  /** Time-sortable: newest last. */
  id: string;
  device_id: string;
  at: string;
  version: string;
  battery: number | null;
  free_storage_kb: number | null;
  queued_sessions: number | null;
  last_upload_error: string | null;
  reset_reason: string | null;
  rssi: number | null;
  uptime_s: number | null;
}

export interface FirmwareTable {
  id: string;
  class: string;
  version: string;
  seq: number;
  sha256: string;
  size: number;
  min_from: string;
  expires: string;
  manifest: string;
  signature: string;
  image_stored: Generated<number>;
  created_at: string;
  created_by: string;
}

export interface RolloutsTable {
  id: string;
  firmware_id: string;
  /** JSON array of cohorts. */
  cohorts: string;
  percent: number;
  failure_threshold_pct: number;
  min_devices: number;
  min_battery_pct: number;
  state: string;
  /** Why it halted, a code: 'failure-threshold' ('' unless halted). */
  halt_reason: Generated<string>;
  /** The halt's figures, JSON: { failed, judged, threshold } ('{}' unless halted). */
  halt_figures: Generated<string>;
  created_at: string;
  updated_at: string;
  created_by: string;
}

interface PitLanesTable {
  track_id: string;
  /** JSON Gate. */
  entry: string;
  exit: string;
  updated_at: string;
  updated_by: string;
}

interface RolloutDevicesTable {
  rollout_id: string;
  device_id: string;
  state: string;
  error: string | null;
  downloaded: Generated<number>;
  offered_at: string;
  updated_at: string;
}

interface AuthSessionsTable {
  /** sha256 of the cookie value; the cookie value itself is never stored. */
  id_hash: string;
  user_email: string;
  created_at: string;
  expires_at: string;
  renewed_at: string;
}

interface AuthFlowsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  mode: string;
  created_at: string;
}

export interface LapSessionsTable {
  id: string;
  device_id: string;
  track: string;
  date: string;
  date_iso: string;
  owner_email: string;
  lap_md5: Generated<string>;
  lap_size: Generated<number>;
  lap_count: Generated<number>;
  /** JSON array of LineProblem */
  lap_problems: Generated<string>;
  gps_md5: Generated<string>;
  gps_size: Generated<number>;
  /** The derived GPS columns blob's size (0 until it is stored). */
  columns_size: Generated<number>;
  /** 1: the gps.six is made from the columns when asked (an import's), no blob of its own; 0: a blob. */
  gps_from_columns: Generated<number>;
  sample_count: Generated<number>;
  gps_problems: Generated<string>;
  /** Non-empty lines of each file as sent (kept + reported). */
  lap_lines: Generated<number>;
  gps_lines: Generated<number>;
  /** JSON of LapFigures (best, ideal, consistency, heats); null until computed. */
  lap_figures: string | null;
  /** The rule lap_figures follow (core/laps FIGURES_VERSION); null: kept before, or not settled since a file arrived. */
  figures_version: number | null;
  /** The GPS ideal lap (ms), kept when the session's track analysis is computed; null until then. */
  ideal_ms: number | null;
  created_at: string;
  updated_at: string;
}

interface LapsTable {
  session_id: string;
  idx: number;
  line: number;
  lap_count: number;
  heat: string;
  lap_time: string;
  lap_time_ms: number;
  lap_seconds: number;
  /** JSON array of the four Sector objects */
  sectors: string;
  sprint_count: number;
  distance_m: number;
}

interface UploadIntentsTable {
  blob_key: string;
  md5: string;
  device_id: string;
  track: string;
  date: string;
  kind: string;
  owner_email: string;
  created_at: string;
}

interface AuditLogTable {
  id: string;
  at: string;
  /** E-mail of the admin or seller, or 'cli' for the command line. */
  actor: string;
  action: string;
  target: string;
  /** JSON of the changed fields before and after. */
  before: string;
  after: string;
}

interface RateLimitsTable {
  /** `${route}|${client key}`. */
  key: string;
  hits: number;
  /** Epoch milliseconds; PostgreSQL returns bigint as text, so read it through Number(). */
  reset_at: number | string;
}

export interface DB {
  users: UsersTable;
  devices: DevicesTable;
  auth_sessions: AuthSessionsTable;
  auth_flows: AuthFlowsTable;
  lap_sessions: LapSessionsTable;
  laps: LapsTable;
  upload_intents: UploadIntentsTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  tracks: TracksTable;
  session_tracks: SessionTracksTable;
  import_collections: ImportCollectionsTable;
  import_files: ImportFilesTable;
  shares: SharesTable;
  video_syncs: VideoSyncsTable;
  device_health: DeviceHealthTable;
  firmware: FirmwareTable;
  rollouts: RolloutsTable;
  rollout_devices: RolloutDevicesTable;
  pit_lanes: PitLanesTable;
}

export interface TracksTable {
  id: string;
  name: string;
  source: 'catalogue' | 'bundled' | 'derived';
  /** The catalogue circuit or bundled outline it follows ('' for a derived track). */
  outline_id: Generated<string>;
  /** 1 when driven the way the outline's points go. */
  forward: Generated<number>;
  /** JSON Gate */
  gate: string;
  /** JSON [[lat, lon], …]: a derived track's line; '[]' otherwise. */
  line: Generated<string>;
  /** JSON [Gate, …]: sector gates an admin placed; '[]': the track's default ones. */
  sectors: Generated<string>;
  south: number;
  west: number;
  north: number;
  east: number;
  version: Generated<number>;
  created_by: Generated<string>;
  /** 1: everyone's (catalogue, bundled, or shared by an admin); 0: `created_by`'s own (a derived track). */
  shared: Generated<number>;
  created_at: string;
  updated_at: string;
}

interface SessionTracksTable {
  session_id: string;
  track_id: string;
  /** JSON Gate: the session's own start/finish (the line its logger timed at); null: the track's. */
  gate: string | null;
}

interface ImportCollectionsTable {
  owner_email: string;
  /** 'imp' + 12 hex digits: the "device" a rider's imported sessions live under. */
  id: string;
  created_at: string;
}

export interface ImportFilesTable {
  owner_email: string;
  /** hex MD5 of the bytes as sent. */
  md5: string;
  session_id: string;
  filename: string;
  format: string;
  size: number | string;
  blob_key: string;
  /** JSON of the import's answer. */
  answer: string;
  created_at: string;
}

interface SharesTable {
  id: string;
  /** sha256 of the link's secret (base64url): the secret itself is never stored. */
  token_hash: string;
  owner_email: string;
  session_id: string;
  /** 'A3' (heat + number) for one lap; null for the whole session. */
  lap: string | null;
  created_at: string;
  expires_at: string | null;
  /** What the rider called the link (shown to whoever opens it); null: none. */
  name: string | null;
  /** The link's secret sealed with SECRET_KEY (SecretBox 'share-link', bound to the link's id); null before 0017. */
  sealed_token: string | null;
}

export interface VideoSyncsTable {
  owner_email: string;
  session_id: string;
  /** A UUID the rider's browser made. */
  id: string;
  name: string;
  /** bigint: a string from PostgreSQL. */
  size: number | string;
  fingerprint: string;
  offset_ms: number;
  drift_ppm: number;
  method: string;
  error_ms: number;
  updated_at: string;
}
