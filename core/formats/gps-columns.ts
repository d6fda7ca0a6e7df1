/** GPS samples as columns: what the gps.six parsers fill and everything after them reads. */

/**
 * GPS samples in columns (one typed array per field): compact to store and send, fast to chart.
 * Numbers are kept as float64 so text → columns → text round-trips exactly.
 */
export interface GpsColumns {
  count: number;
  /** 1-based line numbers of the kept samples. */
  line: Uint32Array;
  lat: Float64Array;
  lon: Float64Array;
  /** km/h */
  speed: Float64Array;
  satellites: Uint16Array;
  /** UTC time of day in ms (from hhmmss.sss). */
  timeMs: Float64Array;
  lapCount: Int32Array;
  firstLap: Uint8Array;
  /** 0..3 for A..D */
  heat: Uint8Array;
  roll: Float64Array;
  leanFiltered: Float64Array;
  meterSum: Int32Array;
}

/** Columns with room for `capacity` samples. */
export function allocGpsColumns(capacity: number): GpsColumns {
  const n = capacity;
  return {
    count: 0,
    line: new Uint32Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    speed: new Float64Array(n),
    satellites: new Uint16Array(n),
    timeMs: new Float64Array(n),
    lapCount: new Int32Array(n),
    firstLap: new Uint8Array(n),
    heat: new Uint8Array(n),
    roll: new Float64Array(n),
    leanFiltered: new Float64Array(n),
    meterSum: new Int32Array(n),
  };
}

const GPS_COLUMN_KEYS = [
  'line',
  'lat',
  'lon',
  'speed',
  'satellites',
  'timeMs',
  'lapCount',
  'firstLap',
  'heat',
  'roll',
  'leanFiltered',
  'meterSum',
] as const;
export type GpsColumnKey = (typeof GPS_COLUMN_KEYS)[number];
export { GPS_COLUMN_KEYS };

/** Trims every column to `count` (views, no copy). */
export function trimGpsColumns(c: GpsColumns): GpsColumns {
  const out = { count: c.count } as GpsColumns;
  for (const k of GPS_COLUMN_KEYS) (out as unknown as Record<string, unknown>)[k] = c[k].subarray(0, c.count);
  return out;
}

/** Stores one sample's fields at index i (both parsers; small enough for V8 to inline). */
export function setSample(
  c: GpsColumns,
  i: number,
  lat: number,
  lon: number,
  speed: number,
  sats: number,
  timeMs: number,
  lapCount: number,
  first: number,
  heat: number,
  roll: number,
  lean: number,
  meterSum: number,
): void {
  c.lat[i] = lat;
  c.lon[i] = lon;
  c.speed[i] = speed;
  c.satellites[i] = sats;
  c.timeMs[i] = timeMs;
  c.lapCount[i] = lapCount;
  c.firstLap[i] = first;
  c.heat[i] = heat;
  c.roll[i] = roll;
  c.leanFiltered[i] = lean;
  c.meterSum[i] = meterSum;
}
