/** `lap.six`: one lap per line, `|`-separated (DESIGN.md, File formats). Pure. */
import { HEATS, MAX_LINE_LENGTH, Problems, type Heat, type ParseResult, type ProblemReason } from './six-lines';
import { lines } from './lines';
import { toInt, toNum } from './numbers';

export interface Sector {
  timerMs: number;
  upFlag: 0 | 1;
  upMax: number;
  upTrack: number;
  displayTime: string;
  distanceM: number;
}

export interface Lap {
  line: number;
  /** As recorded, zero-padded to 7 digits: mmssmmm. */
  lapTime: string;
  lapTimeMs: number;
  heat: Heat;
  lapSeconds: number;
  sectors: [Sector, Sector, Sector, Sector];
  /** "Entrada". */
  sprintCount: number;
  distanceM: number;
  lapCount: number;
}

/** The largest lap.six accepted, from a device or an import: a day's laps are a few kB. */
export const MAX_LAP_SIX_BYTES = 2 * 1024 * 1024;

/** `0132456` → 92456 ms; accepts 1–7 digits (zero-padded to 7); seconds must be < 60. */
export function lapTimeToMs(raw: string): number | undefined {
  if (!/^\d{1,7}$/.test(raw)) return undefined;
  const p = raw.padStart(7, '0');
  const mm = Number(p.slice(0, 2));
  const ss = Number(p.slice(2, 4));
  const ms = Number(p.slice(4, 7));
  if (ss >= 60) return undefined;
  return (mm * 60 + ss) * 1000 + ms;
}

/** 92456 → `01:32.456` (the spec's mm:ss.mmm). */
export function formatLapTime(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const mm = Math.floor(total / 60000);
  const ss = Math.floor((total % 60000) / 1000);
  const mmm = total % 1000;
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}.${String(mmm).padStart(3, '0')}`;
}

/** 92456 → `0132456` (the device's raw form). */
export function msToLapTimeRaw(ms: number): string {
  return formatLapTime(ms).replace(/[:.]/g, '');
}

function parseSector(s: string): Sector | undefined {
  const f = s.split(',');
  if (f.length !== 6) return undefined;
  const timerMs = toInt(f[0]);
  const upFlag = f[1] === '0' ? 0 : f[1] === '1' ? 1 : undefined;
  const upMax = toInt(f[2]);
  const upTrack = toInt(f[3]);
  const displayTime = f[4]!.trim();
  const distanceM = toInt(f[5]);
  if (
    timerMs === undefined ||
    timerMs < 0 ||
    upFlag === undefined ||
    upMax === undefined ||
    upTrack === undefined ||
    distanceM === undefined ||
    distanceM < 0 ||
    displayTime.length > 16
  ) {
    return undefined;
  }
  return { timerMs, upFlag, upMax, upTrack, displayTime, distanceM };
}

function parseLapLine(
  text: string,
  lineNo: number,
  problems: { add(line: number, field: string, reason: ProblemReason): void },
): Lap | undefined {
  if (text.length > MAX_LINE_LENGTH) {
    problems.add(lineNo, '*', 'lineTooLong');
    return undefined;
  }
  const f = text.split('|').map((x) => x.trim());
  if (f.length !== 10) {
    problems.add(lineNo, '*', 'fieldCount');
    return undefined;
  }
  const lapTimeMs = lapTimeToMs(f[0]!);
  if (lapTimeMs === undefined) return void problems.add(lineNo, 'lapTime', 'lapTime');
  const heat = f[1]!.toUpperCase();
  if (!(HEATS as readonly string[]).includes(heat)) return void problems.add(lineNo, 'heat', 'heat');
  const lapSeconds = toNum(f[2]);
  if (lapSeconds === undefined || lapSeconds < 0) return void problems.add(lineNo, 'lapSeconds', 'number');
  const sectors: Sector[] = [];
  for (let i = 0; i < 4; i++) {
    const sector = parseSector(f[3 + i]!);
    if (!sector) return void problems.add(lineNo, `s${i + 1}`, 'sector');
    sectors.push(sector);
  }
  const sprintCount = toInt(f[7]);
  if (sprintCount === undefined || sprintCount < 0) return void problems.add(lineNo, 'sprintCount', 'integer');
  const distanceM = toInt(f[8]);
  if (distanceM === undefined || distanceM < 0) return void problems.add(lineNo, 'distanceM', 'integer');
  const lapCount = toInt(f[9]);
  if (lapCount === undefined || lapCount < 0) return void problems.add(lineNo, 'lapCount', 'integer');
  return {
    line: lineNo,
    lapTime: f[0]!.padStart(7, '0'),
    lapTimeMs,
    heat: heat as Heat,
    lapSeconds,
    sectors: sectors as Lap['sectors'],
    sprintCount,
    distanceM,
    lapCount,
  };
}

export function parseLapSix(text: string): ParseResult<Lap[]> {
  const problems = new Problems();
  const laps: Lap[] = [];
  let count = 0;
  for (const [n, line] of lines(text)) {
    count++;
    const lap = parseLapLine(line, n, problems);
    if (lap) laps.push(lap);
  }
  return { value: laps, problems: problems.list, lines: count };
}

function serializeSector(s: Sector): string {
  return [s.timerMs, s.upFlag, s.upMax, s.upTrack, s.displayTime, s.distanceM].join(',');
}

function serializeLap(lap: Omit<Lap, 'line'>): string {
  return [
    lap.lapTime,
    lap.heat,
    String(lap.lapSeconds),
    ...lap.sectors.map(serializeSector),
    lap.sprintCount,
    lap.distanceM,
    lap.lapCount,
  ].join('|');
}

export function serializeLapSix(laps: Omit<Lap, 'line'>[]): string {
  return laps.map((l) => `${serializeLap(l)}\n`).join('');
}
