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

/** One sample with the spec's field names and types (parsed GPS row). */
export interface GpsSample {
  latitude: number;
  longitude: number;
  strSpeedGps: number;
  strSatGps: number;
  timeGps: string;
  lapCount: string;
  bFirstLap: string;
  strBateria: string;
  roll: number;
  leanFiltered: number;
  meterSum: number;
}

/**
 * Columns with room for `capacity` samples. `oneBuffer`: the twelve of them views of one buffer
 * (doubles first, so every view is aligned), for a whole file parsed into columns made for it:
 * freed and made again for each file, one block is what the C allocator keeps for the next,
 * where twelve smaller ones were handed back to the system and faulted in anew page by page
 * (~1,700 page faults, a fifth of the parse of 110,000 samples). Not for the server's batches,
 * which live as long as an upload: many of those at once in one-buffer form kept the process's
 * memory high after a load test.
 */
export function allocGpsColumns(capacity: number, oneBuffer = false): GpsColumns {
  const n = capacity;
  const buffer = oneBuffer ? new ArrayBuffer(n * 64) : undefined;
  let at = 0;
  const take = <T>(make: (b: ArrayBuffer, offset: number, length: number) => T, width: number): T => {
    const view = make(buffer ?? new ArrayBuffer(n * width), buffer ? at : 0, n);
    at += n * width;
    return view;
  };
  const f64 = () => take((b, o, l) => new Float64Array(b, o, l), 8);
  const lat = f64(),
    lon = f64(),
    speed = f64(),
    timeMs = f64(),
    roll = f64(),
    leanFiltered = f64();
  const line = take((b, o, l) => new Uint32Array(b, o, l), 4);
  const lapCount = take((b, o, l) => new Int32Array(b, o, l), 4);
  const meterSum = take((b, o, l) => new Int32Array(b, o, l), 4);
  const satellites = take((b, o, l) => new Uint16Array(b, o, l), 2);
  const firstLap = take((b, o, l) => new Uint8Array(b, o, l), 1);
  const heat = take((b, o, l) => new Uint8Array(b, o, l), 1);
  return { count: 0, line, lat, lon, speed, satellites, timeMs, lapCount, firstLap, heat, roll, leanFiltered, meterSum };
}

const GPS_COLUMN_KEYS = ['line', 'lat', 'lon', 'speed', 'satellites', 'timeMs', 'lapCount', 'firstLap', 'heat', 'roll', 'leanFiltered', 'meterSum'] as const;
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
