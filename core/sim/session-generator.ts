import { HEATS, type Heat } from '../formats/six-lines';
import { gpsSixSampleLine } from '../formats/gps-six-write';
import { msToLapTimeRaw, serializeLapSix, type Lap, type Sector } from '../formats/lap-six';
import { makeProjection } from '../geo';
import { createRandom } from './random';
import { circularSmooth, curvature, trackLine } from '../tracks/track-line';

/** A closed track outline: [lat, lon] points (first not repeated at the end). */
export interface TrackGeometry {
  name: string;
  points: [number, number][];
  startFinish?: [number, number];
  /** The published length, when the source gives one. */
  officialLengthM?: number;
}

export interface GenerateOptions {
  seed: number;
  /** Samples per second: the device's 10 (default) or 25; 1 and 5 for other loggers. */
  hz?: number;
  /** Number of heats, 1..4 (A, B, C, D). */
  heats?: number;
  /** Flying laps per heat (between the out-lap and the in-lap). */
  lapsPerHeat?: [number, number];
  /** UTC time of day the first heat starts, ms. */
  startTimeMs?: number;
  /** Scales the GPS position noise (1: a 10 Hz module's, the default; 0: exact positions). */
  gpsNoise?: number;
  /** Rider pace as a fraction of the grip-limited lap (0.85..1). */
  skill?: number;
  /**
   * Every flying lap at exactly this pace (no mistakes, no warm-up lap, no weak fix): laps that
   * differ only where `changes` says, for tests with a known answer.
   */
  exactPace?: number;
  /** What a lap ('A3': heat and lap number) does differently from the others, corner by corner. */
  changes?: Record<string, LapChange[]>;
}

/**
 * One thing a lap does differently at a corner, found as the slowest point of the speed profile
 * within 60 m of `atM` (metres along the line from the start/finish).
 */
export type LapChange =
  | { kind: 'brake-earlier'; atM: number; metres: number }
  | { kind: 'lower-min'; atM: number; kmh: number }
  | { kind: 'throttle-later'; atM: number; seconds: number };

export interface GeneratedSession {
  lapSix: string;
  gpsSix: string;
  laps: Lap[];
  sampleCount: number;
  /** Length of the driven line, metres. */
  trackLengthM: number;
  topSpeedKmh: number;
  maxLeanLeftDeg: number;
  maxLeanRightDeg: number;
}

const G = 9.81;
const DS = 2; // resampling step, metres
const MU_LAT = 1.15; // lateral grip: ~49° of lean at the limit
const V_TOP = 80; // m/s (288 km/h)
const A_BRAKE = 10; // m/s²
const A_ACCEL0 = 8.5; // m/s² at low speed (a litre bike), fading with the square of speed
const PIT_SPEED = 60 / 3.6;
/** Where the simulated rider picks up the throttle: the first point past the apex accelerating by this (g). */
const SIM_THROTTLE_G = 0.1;

/** Most acceleration at speed `v` (m/s): a litre bike's, fading with the square of speed. */
const accelAt = (v: number) => A_ACCEL0 * Math.max(0.05, 1 - (v / (V_TOP * 1.05)) ** 2);

interface Line {
  x: Float64Array;
  y: Float64Array;
  kappa: Float64Array;
  vIdeal: Float64Array;
  length: number;
  n: number;
  proj: ReturnType<typeof makeProjection>;
}

/** Resamples the outline every DS metres from the start/finish, smooths it, derives curvature and the ideal speed. */
export function buildRacingLine(track: TrackGeometry): Line {
  // Laps start where the start/finish point meets the outline, as a gate there times them.
  const start = track.startFinish ? { lat: track.startFinish[0], lon: track.startFinish[1] } : undefined;
  const { proj, x: rx, y: ry } = trackLine(track.points, start, DS);
  const n = rx.length;
  const x = circularSmooth(rx, 3);
  const y = circularSmooth(ry, 3);
  let length = 0;
  for (let i = 0; i < n; i++) length += Math.hypot(x[(i + 1) % n]! - x[i]!, y[(i + 1) % n]! - y[i]!);
  const kappa = curvature(x, y, 8);
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = Math.min(V_TOP, Math.sqrt((MU_LAT * G) / Math.max(Math.abs(kappa[i]!), 1e-6)));
  const ds = length / n;
  for (let pass = 0; pass < 3; pass++) {
    for (let j = 0; j < n; j++) {
      const i = j;
      const next = (j + 1) % n;
      v[next] = Math.min(v[next]!, Math.sqrt(v[i]! ** 2 + 2 * accelAt(v[i]!) * ds));
    }
    for (let j = n - 1; j >= 0; j--) {
      const prev = (j - 1 + n) % n;
      v[prev] = Math.min(v[prev]!, Math.sqrt(v[j]! ** 2 + 2 * A_BRAKE * ds));
    }
  }
  return { x, y, kappa, vIdeal: v, length, n, proj };
}

interface LapPlan {
  heat: Heat;
  heatIndex: number;
  lapCount: number;
  kind: 'out' | 'flying' | 'in';
  /** Speed multiplier per sector. */
  pace: [number, number, number, number];
  weakFix: boolean;
}

/** The slowest point of a lap's speed profile within 60 m of `atM`. */
function apexNear(v: Float64Array, atM: number, ds: number): number {
  const n = v.length;
  let apex = Math.round(atM / ds);
  for (let k = -Math.round(60 / ds); k <= Math.round(60 / ds); k++) {
    const i = (((Math.round(atM / ds) + k) % n) + n) % n;
    if (v[i]! < v[((apex % n) + n) % n]!) apex = i;
  }
  return ((apex % n) + n) % n;
}

/** Speeds lowered where they must be for braking and acceleration within the bike's limits. */
function withinLimits(v: Float64Array, ds: number): void {
  const n = v.length;
  for (let i = 0; i + 1 < n; i++) v[i + 1] = Math.min(v[i + 1]!, Math.sqrt(v[i]! ** 2 + 2 * accelAt(v[i]!) * ds));
  for (let i = n - 1; i > 0; i--) v[i - 1] = Math.min(v[i - 1]!, Math.sqrt(v[i]! ** 2 + 2 * A_BRAKE * ds));
}

/** Changes a lap's speed profile (m/s every `ds` metres) as `change` says, within physics. */
function applyChange(v: Float64Array, change: LapChange, ds: number): void {
  const n = v.length;
  const apex = apexNear(v, change.atM, ds);
  if (change.kind === 'brake-earlier') {
    // Braking began where the speed stopped rising on the way in; now `metres` before, more gently.
    let top = apex;
    while (top > 0 && v[top - 1]! > v[top]!) top--;
    const from = Math.max(0, top - Math.round(change.metres / ds));
    const [v0, v1] = [v[from]!, v[apex]!];
    for (let i = from; i <= apex; i++)
      v[i] = Math.min(v[i]!, Math.sqrt(v1 ** 2 + ((v0 ** 2 - v1 ** 2) * (apex - i)) / (apex - from)));
  } else if (change.kind === 'lower-min') {
    const cap = v[apex]! - change.kmh / 3.6;
    for (let i = Math.max(0, apex - 5); i <= Math.min(n - 1, apex + 5); i++) v[i] = Math.min(v[i]!, cap);
    withinLimits(v, ds);
  } else {
    // The throttle picked up where the speed first rises by SIM_THROTTLE_G past the apex; the
    // drive out the same, `seconds` later (as far on as that is at the speed held), up to the
    // straight's top speed, carried until the braking for the next corner.
    let pick = apex;
    while (pick + 1 < n && (v[pick + 1]! ** 2 - v[pick]! ** 2) / (2 * ds) < SIM_THROTTLE_G * G) pick++;
    let top = pick;
    while (top + 1 < n && v[top + 1]! >= v[top]!) top++;
    const shift = Math.round((v[pick]! * change.seconds) / ds);
    const before = v.slice();
    for (let i = pick; i <= top; i++) v[i] = Math.min(before[i]!, before[Math.max(pick, i - shift)]!);
    for (let i = top + 1; i < n && before[i]! > v[top]!; i++) v[i] = v[top]!;
  }
}

/** A deterministic, realistic session: heats A–D, each with an out-lap, flying laps and an in-lap. */
export function generateSession(track: TrackGeometry, options: GenerateOptions): GeneratedSession {
  const rnd = createRandom(options.seed);
  const hz = options.hz ?? 10;
  const heatCount = Math.min(4, Math.max(1, options.heats ?? 3));
  const [minLaps, maxLaps] = options.lapsPerHeat ?? [5, 9];
  const skill = options.exactPace ?? options.skill ?? 0.93 + rnd.next() * 0.04;
  const exact = options.exactPace !== undefined;
  const line = buildRacingLine(track);
  const { n, length } = line;
  const ds = length / n;
  const sectorEdge = [0, 1, 2, 3, 4].map((q) => Math.round((q * n) / 4));

  const plans: LapPlan[] = [];
  for (let h = 0; h < heatCount; h++) {
    const flying = rnd.int(minLaps, maxLaps);
    const heatPace = skill * (1 + 0.004 * h); // a rider usually finds time through the day
    const slow = (base: number) => base * (1 + 0.03 * rnd.normal());
    plans.push({
      heat: HEATS[h]!,
      heatIndex: h,
      lapCount: 0,
      kind: 'out',
      pace: [slow(0.74), slow(0.76), slow(0.78), slow(0.8)],
      weakFix: false,
    });
    for (let l = 1; l <= flying; l++) {
      const warm = l === 1 ? 0.985 : 1;
      const pace = [0, 1, 2, 3].map(() => {
        const mistake = rnd.next() < 0.08 ? 0.95 : 1;
        return exact ? skill : Math.min(0.995, heatPace * warm * mistake * (1 + 0.006 * rnd.normal()));
      }) as LapPlan['pace'];
      const weakFix = rnd.next() < 0.06 && !exact;
      plans.push({ heat: HEATS[h]!, heatIndex: h, lapCount: l, kind: 'flying', pace, weakFix });
    }
    plans.push({
      heat: HEATS[h]!,
      heatIndex: h,
      lapCount: flying + 1,
      kind: 'in',
      pace: [slow(0.76), slow(0.74), slow(0.72), slow(0.68)],
      weakFix: false,
    });
  }

  const gpsLines: string[] = [];
  const laps: Lap[] = [];
  const bestSector = [Infinity, Infinity, Infinity, Infinity];
  let clock = options.startTimeMs ?? 13 * 3_600_000; // 13:00 UTC = 10:00 in São Paulo
  let noiseX = 0;
  let noiseY = 0;
  let sats = 12;
  let leanFiltered = 0;
  let topSpeed = 0;
  let maxLeft = 0;
  let maxRight = 0;
  const dtSample = 1000 / hz;
  let nextSampleAt = clock;
  let currentHeat = -1;

  for (const plan of plans) {
    if (plan.heatIndex !== currentHeat) {
      if (currentHeat >= 0) clock += (20 + rnd.int(0, 20)) * 60_000; // in the pits between heats
      currentHeat = plan.heatIndex;
      nextSampleAt = clock;
    }
    // Speed along this lap: ideal × sector pace; the in-lap rolls down to pit speed on the last 400 m.
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const sector = Math.min(3, Math.floor((i * 4) / n));
      let speed = line.vIdeal[i]! * plan.pace[sector]!;
      if (plan.kind === 'in' && (n - i) * ds < 400) speed = Math.min(speed, PIT_SPEED + (((n - i) * ds) / 400) * 10);
      if (plan.kind === 'out' && i * ds < 200) speed = Math.min(speed, PIT_SPEED + ((i * ds) / 200) * 10);
      v[i] = Math.max(5, speed);
    }
    for (const change of options.changes?.[`${plan.heat}${plan.lapCount}`] ?? []) applyChange(v, change, ds);
    // Time at each resampled point (trapezoid on 1/v).
    const t = new Float64Array(n + 1);
    // The lap's last stretch ends at its own last speed (not its first: an out-lap would end at pit speed).
    for (let i = 0; i < n; i++) t[i + 1] = t[i]! + ((2 * ds) / (v[i]! + v[Math.min(i + 1, n - 1)]!)) * 1000;
    const lapMs = Math.round(t[n]!);
    const sectors: Sector[] = [0, 1, 2, 3].map((q) => {
      const ms = Math.round(t[sectorEdge[q + 1]!]! - t[sectorEdge[q]!]!);
      const improved = plan.kind === 'flying' && ms < bestSector[q]!;
      if (improved) bestSector[q] = ms;
      // The last sector takes the remainder, so sectors add up to the lap distance exactly.
      const dist =
        q < 3
          ? Math.round(((sectorEdge[q + 1]! - sectorEdge[q]!) * length) / n)
          : Math.round(length) -
            [0, 1, 2].reduce((a, k) => a + Math.round(((sectorEdge[k + 1]! - sectorEdge[k]!) * length) / n), 0);
      return {
        timerMs: ms,
        upFlag: improved ? 1 : 0,
        upMax: 0,
        upTrack: 0,
        displayTime: (ms / 1000).toFixed(3),
        distanceM: dist,
      };
    });
    laps.push({
      line: laps.length + 1,
      lapTime: msToLapTimeRaw(lapMs),
      lapTimeMs: lapMs,
      heat: plan.heat,
      lapSeconds: lapMs / 1000,
      sectors: sectors as Lap['sectors'],
      sprintCount: plan.heatIndex + 1,
      distanceM: Math.round(length),
      lapCount: plan.lapCount,
    });

    // GPS samples on this lap at the device rate.
    const lapStart = clock;
    let seg = 0;
    const weakFrom = plan.weakFix ? rnd.int(0, Math.floor(n / 2)) : -1;
    while (nextSampleAt < lapStart + t[n]!) {
      const local = nextSampleAt - lapStart;
      while (t[seg + 1]! < local) seg++;
      const f = (local - t[seg]!) / (t[seg + 1]! - t[seg]! || 1);
      const i1 = (seg + 1) % n;
      const px = line.x[seg]! + (line.x[i1]! - line.x[seg]!) * f;
      const py = line.y[seg]! + (line.y[i1]! - line.y[seg]!) * f;
      const speed = v[seg]! + (v[Math.min(seg + 1, n - 1)]! - v[seg]!) * f;
      const kappa = line.kappa[seg]!;
      const weak = weakFrom >= 0 && seg >= weakFrom && seg < weakFrom + 150;
      const noise = (weak ? 0.9 : 0.25) * (options.gpsNoise ?? 1);
      noiseX = 0.95 * noiseX + rnd.normal() * noise;
      noiseY = 0.95 * noiseY + rnd.normal() * noise;
      sats = weak ? 4 + rnd.int(0, 1) : Math.min(16, Math.max(9, sats + (rnd.next() < 0.02 ? rnd.int(-1, 1) : 0)));
      const [lat, lon] = line.proj.toLatLon(px + noiseX, py + noiseY);
      const kmh = Math.max(0, speed * 3.6 + rnd.normal() * 0.3);
      // Lean from speed and radius; negative to the left (left turn = positive curvature).
      const lean = (-Math.sign(kappa) * (Math.atan((speed * speed * Math.abs(kappa)) / G) * 180)) / Math.PI;
      const roll = Math.max(-65, Math.min(65, lean + rnd.normal() * 1.2));
      leanFiltered = 0.7 * leanFiltered + 0.3 * roll;
      // Extremes from the values as written, so they match what a parser reads back.
      topSpeed = Math.max(topSpeed, Number(kmh.toFixed(1)));
      maxLeft = Math.min(maxLeft, Number(roll.toFixed(1)));
      maxRight = Math.max(maxRight, Number(roll.toFixed(1)));
      const meterSum = Math.round((seg + f) * ds);
      gpsLines.push(
        gpsSixSampleLine({
          lat,
          lon,
          speed: kmh,
          satellites: sats,
          timeMs: nextSampleAt % 86_400_000,
          lapCount: plan.lapCount,
          firstLap: plan.kind === 'out' ? 1 : 0,
          heat: plan.heatIndex,
          roll,
          leanFiltered,
          meterSum,
        }),
      );
      nextSampleAt += dtSample;
    }
    clock = lapStart + t[n]!;
  }

  return {
    lapSix: serializeLapSix(laps),
    gpsSix: gpsLines.join(''),
    laps,
    sampleCount: gpsLines.length,
    trackLengthM: length,
    topSpeedKmh: Number(topSpeed.toFixed(1)),
    maxLeanLeftDeg: Number(maxLeft.toFixed(1)),
    maxLeanRightDeg: Number(maxRight.toFixed(1)),
  };
}
