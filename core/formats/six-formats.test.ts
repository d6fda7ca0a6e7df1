import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lines } from './lines';
import { decodeSixBody, HEATS, Problems } from './six-lines';
import { formatLapTime, lapTimeToMs, msToLapTimeRaw, parseLapSix, serializeLapSix, type Lap } from './lap-six';
import { msToGpsTime, parseGpsLineStrict, parseGpsSix } from './gps-six';
import { allocGpsColumns, GPS_COLUMN_KEYS, trimGpsColumns, type GpsColumns } from './gps-columns';
import { GpsSixStream } from './gps-six-stream';

/** One sample with the spec's field names and types (parsed GPS row). */
interface GpsSample {
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

function gpsSampleAt(c: GpsColumns, i: number): GpsSample {
  return {
    latitude: c.lat[i]!,
    longitude: c.lon[i]!,
    strSpeedGps: c.speed[i]!,
    strSatGps: c.satellites[i]!,
    timeGps: msToGpsTime(c.timeMs[i]!),
    lapCount: String(c.lapCount[i]),
    bFirstLap: String(c.firstLap[i]),
    strBateria: HEATS[c.heat[i]!]!,
    roll: c.roll[i]!,
    leanFiltered: c.leanFiltered[i]!,
    meterSum: c.meterSum[i]!,
  };
}

const LAP_EXAMPLE =
  '0132456|A|92.456|23456,1,0,0,23.456,1034|25001,0,0,0,25.001,1190|21999,0,0,0,21.999,1002|22000,0,0,0,22.000,1083|3|4309|5';
const GPS_EXAMPLE = '-23.701234,-46.697654|187.3|12|140151.100|5|0|A|-42.5|-41.8|1234';

describe('lap.six', () => {
  it('parses the DESIGN.md example field by field', () => {
    const { value, problems } = parseLapSix(LAP_EXAMPLE);
    expect(problems).toEqual([]);
    expect(value[0]).toEqual({
      line: 1,
      lapTime: '0132456',
      lapTimeMs: 92456,
      heat: 'A',
      lapSeconds: 92.456,
      sectors: [
        { timerMs: 23456, upFlag: 1, upMax: 0, upTrack: 0, displayTime: '23.456', distanceM: 1034 },
        { timerMs: 25001, upFlag: 0, upMax: 0, upTrack: 0, displayTime: '25.001', distanceM: 1190 },
        { timerMs: 21999, upFlag: 0, upMax: 0, upTrack: 0, displayTime: '21.999', distanceM: 1002 },
        { timerMs: 22000, upFlag: 0, upMax: 0, upTrack: 0, displayTime: '22.000', distanceM: 1083 },
      ],
      sprintCount: 3,
      distanceM: 4309,
      lapCount: 5,
    });
  });

  it('shows lap times as mm:ss.mmm, zero-padding the raw text to 7 digits', () => {
    expect(formatLapTime(lapTimeToMs('0132456')!)).toBe('01:32.456');
    expect(lapTimeToMs('132456')).toBe(92456);
    expect(parseLapSix(LAP_EXAMPLE.replace('0132456', '132456')).value[0]!.lapTime).toBe('0132456');
    expect(msToLapTimeRaw(92456)).toBe('0132456');
    expect(lapTimeToMs('0160000')).toBeUndefined();
    expect(lapTimeToMs('12345678')).toBeUndefined();
  });

  it('drops empty lines, accepts CRLF, and numbers lines as sent', () => {
    const text = `\r\n${LAP_EXAMPLE}\r\n\r\n   \r\n${LAP_EXAMPLE.replace('|5', '|6')}\r\n`;
    const { value, problems, lines } = parseLapSix(text);
    expect(problems).toEqual([]);
    expect(lines).toBe(2);
    expect(value.map((l) => [l.line, l.lapCount])).toEqual([
      [2, 5],
      [5, 6],
    ]);
  });

  it('reports each bad line with its number, field and reason, and keeps the good ones', () => {
    const bad = [
      LAP_EXAMPLE,
      'garbage',
      LAP_EXAMPLE.replace('|A|', '|E|'),
      LAP_EXAMPLE.replace('0132456', '01x2456'),
      LAP_EXAMPLE.replace('25001,0,0,0,25.001,1190', '25001,2,0,0,25.001,1190'),
      LAP_EXAMPLE.replace('|4309|', '|-5|'),
      LAP_EXAMPLE.replace('|3|', '|3.5|'),
      LAP_EXAMPLE.replace('92.456', 'NaN'),
      `${LAP_EXAMPLE}|extra`,
    ].join('\n');
    const { value, problems } = parseLapSix(bad);
    expect(value).toHaveLength(1);
    expect(problems).toEqual([
      { line: 2, field: '*', reason: 'fieldCount' },
      { line: 3, field: 'heat', reason: 'heat' },
      { line: 4, field: 'lapTime', reason: 'lapTime' },
      { line: 5, field: 's2', reason: 'sector' },
      { line: 6, field: 'distanceM', reason: 'integer' },
      { line: 7, field: 'sprintCount', reason: 'integer' },
      { line: 8, field: 'lapSeconds', reason: 'number' },
      { line: 9, field: '*', reason: 'fieldCount' },
    ]);
  });

  it('refuses a huge single line without splitting it, and caps the problem list', () => {
    expect(parseLapSix('x'.repeat(5_000_000)).problems).toEqual([{ line: 1, field: '*', reason: 'lineTooLong' }]);
    const many = parseLapSix(Array.from({ length: 1000 }, () => 'bad').join('\n'));
    expect(many.problems).toHaveLength(201);
    expect(many.problems.at(-1)!.reason).toBe('tooManyProblems');
  });
});

describe('gps.six', () => {
  it('parses the DESIGN.md example into the spec fields and types', () => {
    const { value, problems } = parseGpsSix(GPS_EXAMPLE);
    expect(problems).toEqual([]);
    expect(value.count).toBe(1);
    expect(gpsSampleAt(value, 0)).toEqual({
      latitude: -23.701234,
      longitude: -46.697654,
      strSpeedGps: 187.3,
      strSatGps: 12,
      timeGps: '140151.100',
      lapCount: '5',
      bFirstLap: '0',
      strBateria: 'A',
      roll: -42.5,
      leanFiltered: -41.8,
      meterSum: 1234,
    } satisfies GpsSample);
  });

  it('reports bad samples with line and field', () => {
    const text = [
      GPS_EXAMPLE,
      GPS_EXAMPLE.replace('-23.701234', '-93.1'),
      GPS_EXAMPLE.replace('140151.100', '250000.000'),
      GPS_EXAMPLE.replace('|0|A|', '|2|A|'),
      GPS_EXAMPLE.replace('|A|', '|Z|'),
      GPS_EXAMPLE.replace('|12|', '|twelve|'),
      '',
      GPS_EXAMPLE.replace('-46.697654', '-46.697654,1'),
    ].join('\r\n');
    const { value, problems } = parseGpsSix(text);
    expect(value.count).toBe(1);
    expect(problems).toEqual([
      { line: 2, field: 'latitude', reason: 'latitude' },
      { line: 3, field: 'timeGps', reason: 'time' },
      { line: 4, field: 'bFirstLap', reason: 'flag' },
      { line: 5, field: 'strBateria', reason: 'heat' },
      { line: 6, field: 'strSatGps', reason: 'integer' },
      { line: 8, field: 'latitude', reason: 'latitude' },
    ]);
  });

  it('reads blanks around any value, and reports the first field at fault whether its text or its range is wrong', () => {
    const spaced = ' -23.701234 ,\t-46.697654 | 187.3 |12| 140151.1 | 5 |0| a |-42.5|-41.8 |1234\u00a0';
    const { value, problems } = parseGpsSix(
      [
        spaced,
        GPS_EXAMPLE.replace('-23.701234', '-93.1').replace('|12|', '|twelve|'), // range, then text
        GPS_EXAMPLE.replace('187.3', '1e2').replace('-42.5', '-142.5'), // text, then range
        GPS_EXAMPLE.replace('140151.100', '235960.999'), // a leap second
        GPS_EXAMPLE.replace('140151.100', '236000'),
        GPS_EXAMPLE.replace('|5|', '|+5|'),
        GPS_EXAMPLE.replace('|A|', '|A |').replace('|0|', '| 1|'),
        GPS_EXAMPLE.replace('-46.697654', '-46.697654 1'),
        GPS_EXAMPLE.replace('|1234', '|1234|'),
      ].join('\n'),
    );
    expect(problems).toEqual([
      { line: 2, field: 'latitude', reason: 'latitude' },
      { line: 3, field: 'strSpeedGps', reason: 'number' },
      { line: 5, field: 'timeGps', reason: 'time' },
      { line: 6, field: 'lapCount', reason: 'integer' },
      { line: 8, field: 'longitude', reason: 'longitude' },
      { line: 9, field: '*', reason: 'fieldCount' },
    ]);
    expect(Array.from(value.line)).toEqual([1, 4, 7]);
    expect(gpsSampleAt(value, 0)).toMatchObject({ latitude: -23.701234, timeGps: '140151.100', strBateria: 'A' });
    expect(value.timeMs[1]).toBe(((23 * 60 + 59) * 60 + 60) * 1000 + 999);
    expect(gpsSampleAt(value, 2)).toMatchObject({ bFirstLap: '1', strBateria: 'A' });
  });

  it('formats GPS time back to hhmmss.sss', () => {
    expect(msToGpsTime(50511100)).toBe('140151.100');
  });
});

describe('whole-body checks', () => {
  it('refuses empty, NUL/binary, invalid UTF-8 and UTF-16 bodies', () => {
    expect(decodeSixBody(new Uint8Array())).toEqual({ rejection: 'empty' });
    expect(decodeSixBody(new Uint8Array([0x30, 0, 0x31]))).toEqual({ rejection: 'binary' });
    expect(decodeSixBody(new Uint8Array([0xc3, 0x28]))).toEqual({ rejection: 'invalidUtf8' });
    const utf16 = new Uint8Array(Buffer.from(`\ufeff${GPS_EXAMPLE}`, 'utf16le'));
    expect(decodeSixBody(utf16)).toEqual({ rejection: 'binary' });
    expect(decodeSixBody(new TextEncoder().encode(GPS_EXAMPLE))).toEqual({ text: GPS_EXAMPLE });
  });
});

// ---------- properties ----------

const intIn = (min: number, max: number) => fc.integer({ min, max });
const decimal = (min: number, max: number, digits: number) =>
  intIn(min * 10 ** digits, max * 10 ** digits).map((n) => n / 10 ** digits);
const sectorArb = fc.record({
  timerMs: intIn(0, 600_000),
  upFlag: fc.constantFrom(0 as const, 1 as const),
  upMax: intIn(-1000, 1000),
  upTrack: intIn(-1000, 1000),
  displayTime: fc.stringMatching(/^[0-9:.]{0,10}$/),
  distanceM: intIn(0, 100_000),
});
const lapArb: fc.Arbitrary<Omit<Lap, 'line'>> = intIn(0, 99 * 60_000 + 59_999).chain((ms) =>
  fc.record({
    lapTime: fc.constant(msToLapTimeRaw(ms)),
    lapTimeMs: fc.constant(ms),
    heat: fc.constantFrom('A' as const, 'B' as const, 'C' as const, 'D' as const),
    lapSeconds: decimal(0, 6000, 3),
    sectors: fc.tuple(sectorArb, sectorArb, sectorArb, sectorArb),
    sprintCount: intIn(0, 1000),
    distanceM: intIn(0, 100_000),
    lapCount: intIn(0, 10_000),
  }),
);
const sampleArb: fc.Arbitrary<GpsSample> = fc.record({
  latitude: decimal(-90, 90, 6),
  longitude: decimal(-180, 180, 6),
  strSpeedGps: decimal(0, 400, 1),
  strSatGps: intIn(0, 40),
  timeGps: intIn(0, 86_399_999).map(msToGpsTime),
  lapCount: intIn(0, 500).map(String),
  bFirstLap: fc.constantFrom('0', '1'),
  strBateria: fc.constantFrom('A', 'B', 'C', 'D'),
  roll: decimal(-70, 70, 1),
  leanFiltered: decimal(-70, 70, 1),
  meterSum: intIn(0, 100_000),
});

describe('properties (fast-check, seeded)', () => {
  const params = { seed: 20261122, numRuns: 300 };

  it('lap.six: serialize → parse round-trips', () => {
    fc.assert(
      fc.property(fc.array(lapArb, { maxLength: 30 }), (laps) => {
        const { value, problems } = parseLapSix(serializeLapSix(laps));
        expect(problems).toEqual([]);
        expect(value.map(({ line: _line, ...rest }) => rest)).toEqual(laps);
      }),
      params,
    );
  });

  it('gps.six: serialize → parse round-trips', () => {
    fc.assert(
      fc.property(fc.array(sampleArb, { maxLength: 50 }), (samples) => {
        const text = samples
          .map(
            (s) =>
              `${s.latitude},${s.longitude}|${s.strSpeedGps}|${s.strSatGps}|${s.timeGps}|${s.lapCount}|${s.bFirstLap}|${s.strBateria}|${s.roll}|${s.leanFiltered}|${s.meterSum}\n`,
          )
          .join('');
        const parsed = parseGpsSix(text);
        expect(parsed.problems).toEqual([]);
        expect(Array.from({ length: parsed.value.count }, (_, i) => gpsSampleAt(parsed.value, i))).toEqual(samples);
      }),
      params,
    );
  });

  /** The field-by-field reading alone, line by line: what the cursor's reading must agree with. */
  const strictOnly = (text: string) => {
    const problems = new Problems();
    const c = allocGpsColumns(text.split('\n').length);
    let seen = 0;
    for (const [n, line] of lines(text)) {
      seen++;
      parseGpsLineStrict(line, n, problems, c);
    }
    return { value: trimGpsColumns(c), problems: problems.list, lines: seen };
  };
  const expectSameReading = (text: string) => {
    const fast = parseGpsSix(text);
    const strict = strictOnly(text);
    expect(fast.lines).toBe(strict.lines);
    expect(fast.problems).toEqual(strict.problems);
    for (const k of GPS_COLUMN_KEYS) expect(Array.from(fast.value[k]), k).toEqual(Array.from(strict.value[k]));
  };
  // Values near and past what the format allows: long digit runs, signs, lone dots, odd blanks.
  const digitsArb = fc.stringMatching(/^[0-9]{0,18}$/);
  const numberTextArb = fc
    .tuple(fc.constantFrom('', '-', '+'), digitsArb, fc.constantFrom('', '.'), digitsArb)
    .map(([sign, whole, dot, fraction]) => sign + whole + dot + (dot ? fraction : ''));
  const blankArb = fc.constantFrom('', '', '', ' ', '\t', '  ', '\u00a0', '\v');
  const fieldTextArb = fc.oneof(
    numberTextArb,
    fc.stringMatching(/^[0-9]{5,7}(\.[0-9]{0,4})?$/), // times
    fc.constantFrom('0', '1', '2', 'A', 'b', 'D', 'e', 'E', '-0', '1e3', 'NaN', 'Infinity', ''),
  );
  const oddLineArb = fc
    .tuple(fc.array(fc.tuple(blankArb, fieldTextArb, blankArb), { minLength: 11, maxLength: 12 }), fc.nat(11))
    .map(([fields, commaAt]) =>
      fields
        .map(([before, text, after]) => before + text + after)
        .reduce((line, f, k) => line + (k === 1 || k === commaAt ? ',' : '|') + f),
    );

  it('the cursor reads every line as the field-by-field reading does: values, -0, problems', () => {
    const sampleLine = (s: GpsSample) =>
      `${s.latitude},${s.longitude}|${s.strSpeedGps}|${s.strSatGps}|${s.timeGps}|${s.lapCount}|${s.bFirstLap}|${s.strBateria}|${s.roll}|${s.leanFiltered}|${s.meterSum}`;
    fc.assert(
      fc.property(
        fc.array(fc.oneof(sampleArb.map(sampleLine), oddLineArb, fc.string({ maxLength: 40 })), { maxLength: 20 }),
        fc.constantFrom('\n', '\r\n'),
        (lineTexts, eol) => expectSameReading(lineTexts.join(eol)),
      ),
      { seed: 20261206, numRuns: 2000 },
    );
    // Known corners: 15 and 16 digits in all, a lone sign or dot, blanks the cursor leaves alone.
    expectSameReading(
      [
        '-0.000000,-0|0|0|000000|0|0|a|-0.|.5|0',
        '12.3456789012345,-46.69|1|1|235960.999|1|1|D|1|1|2000000000',
        '12.34567890123456,-46.69|1|1|140151.1|1|1|d|1|1|1',
        '\u00a012.5,1|1|1|140151|1|1|A|1|1|1',
        '1,1|1|1|240000|1|1|A|1|1|1',
        '-,1|1|1|140151|1|1|A|1|1|1',
        '.,1|1|1|140151|1|1|A|1|1|1',
        `${'1'.repeat(1030)},1|1|1|140151|1|1|A|1|1|1`,
      ].join('\n'),
    );
  });

  it('random text never throws, and every non-empty line is either kept or reported', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (text) => {
        const laps = parseLapSix(text);
        const gps = parseGpsSix(text);
        expect(laps.value.length + laps.problems.length).toBe(laps.lines);
        expect(gps.value.count + gps.problems.length).toBe(gps.lines);
      }),
      { ...params, numRuns: 1000 },
    );
  });

  it('mutated valid files never throw and keep the untouched lines', () => {
    fc.assert(
      fc.property(
        fc.array(lapArb, { minLength: 2, maxLength: 10 }),
        fc.nat(),
        fc.string({ maxLength: 5 }),
        (laps, pos, junk) => {
          const lines = serializeLapSix(laps).split('\n');
          const target = pos % laps.length;
          const line = lines[target]!;
          const at = pos % (line.length + 1);
          lines[target] = line.slice(0, at) + junk + line.slice(at + 1);
          const { value, problems } = parseLapSix(lines.join('\n'));
          expect(value.length + problems.length).toBeGreaterThanOrEqual(laps.length - 1);
          expect(value.filter((l) => l.line !== target + 1).length).toBe(laps.length - 1);
        },
      ),
      params,
    );
  });
});

describe('GpsSixStream (gps.six parsed as it arrives)', () => {
  /** A whole-chunk UTF-8 check, like Node's isUtf8 on the server. */
  const wholeChunk = (b: Uint8Array) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(b);
      return true;
    } catch {
      return false;
    }
  };

  /** Feeds `bytes` cut at `cuts` and gathers what the stream hands out (copies: the batches are reused). */
  const streamed = (bytes: Uint8Array, cuts: number[], isUtf8?: (b: Uint8Array) => boolean) => {
    const batches: GpsColumns[] = [];
    const stream = new GpsSixStream((c) => {
      const copy = { count: c.count } as GpsColumns;
      for (const k of GPS_COLUMN_KEYS) (copy as unknown as Record<string, unknown>)[k] = c[k].slice();
      batches.push(copy);
    }, isUtf8);
    let at = 0;
    for (const cut of [...cuts.map((c) => c % (bytes.length + 1))].sort((a, b) => a - b)) {
      stream.push(bytes.subarray(at, Math.max(at, cut)));
      at = Math.max(at, cut);
    }
    stream.push(bytes.subarray(at));
    const summary = stream.end();
    const column = (k: (typeof GPS_COLUMN_KEYS)[number]) =>
      batches.flatMap((b) => Array.from(b[k] as ArrayLike<number>));
    return { summary, column };
  };

  it('agrees with parseGpsSix whatever the chunk boundaries: lines, samples, columns and problems', () => {
    const line = (s: GpsSample) =>
      `${s.latitude},${s.longitude}|${s.strSpeedGps}|${s.strSatGps}|${s.timeGps}|${s.lapCount}|${s.bFirstLap}|${s.strBateria}|${s.roll}|${s.leanFiltered}|${s.meterSum}`;
    const longLine = 'x'.repeat(3000);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(sampleArb.map(line), fc.string({ maxLength: 30 }), fc.constant(''), fc.constant(longLine)), {
          minLength: 1,
          maxLength: 25,
        }),
        fc.constantFrom('\n', '\r\n'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (lines, eol, cuts) => {
          const bytes = new TextEncoder().encode(lines.join(eol));
          const whole = parseGpsSix(bytes);
          const { summary, column } = streamed(bytes, cuts);
          expect(summary.rejection).toBe(bytes.length === 0 ? 'empty' : undefined);
          expect(summary.lines).toBe(whole.lines);
          expect(summary.indexed).toBe(whole.value.count);
          expect(summary.problems).toEqual(whole.problems);
          for (const k of GPS_COLUMN_KEYS)
            expect(column(k), k).toEqual(Array.from(whole.value[k] as ArrayLike<number>));
        },
      ),
      { seed: 20261122, numRuns: 400 },
    );
  });

  it('refuses NUL bytes and invalid UTF-8 anywhere, also split across chunks or inside a dropped long line', () => {
    const ok = new TextEncoder().encode(`${GPS_EXAMPLE}\n`);
    const euro = new TextEncoder().encode('€'); // 3 bytes
    const cases: [Uint8Array, number[], string][] = [
      [Uint8Array.from([...ok, 0x31, 0x00, 0x32]), [5], 'binary'],
      [Uint8Array.from([0xff, 0xfe, 0x31, 0x00]), [], 'binary'], // UTF-16 with a BOM
      [Uint8Array.from([...ok, 0xc3, 0x28]), [ok.length + 1], 'invalidUtf8'],
      [Uint8Array.from([...ok, ...euro.subarray(0, 2)]), [ok.length + 1], 'invalidUtf8'],
      [Uint8Array.from([...new TextEncoder().encode('y'.repeat(5000)), 0xff, 10, ...ok]), [2000, 4000], 'invalidUtf8'],
    ];
    // Both checkers: the browser's streaming TextDecoder and a whole-chunk one (Node's isUtf8 on the server).
    for (const check of [undefined, wholeChunk]) {
      for (const [bytes, cuts, rejection] of cases)
        expect(streamed(bytes, cuts, check).summary.rejection).toBe(rejection);
      // A character split between two chunks is fine, wherever the cut falls.
      const split = Uint8Array.from([
        ...new TextEncoder().encode(`${GPS_EXAMPLE}|`),
        ...euro,
        ...new TextEncoder().encode('😀'),
        10,
      ]);
      for (let cut = split.length - 8; cut < split.length; cut++) {
        expect(streamed(split, [cut], check).summary.rejection).toBeUndefined();
        expect(streamed(split, [cut, cut + 1], check).summary.rejection).toBeUndefined();
      }
    }
    expect(streamed(new Uint8Array(0), []).summary.rejection).toBe('empty');
  });

  it("the whole-chunk UTF-8 check gives the streaming decoder's verdict on any bytes, any cuts", () => {
    const bytesArb = fc.array(
      fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(10)),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 6 }), (arr, cuts) => {
        const bytes = Uint8Array.from(arr);
        expect(streamed(bytes, cuts, wholeChunk).summary.rejection).toBe(streamed(bytes, cuts).summary.rejection);
      }),
      { seed: 7, numRuns: 2000 },
    );
  });

  it('holds at most one line in memory: a 10 MB line without a newline is dropped as it streams', () => {
    const stream = new GpsSixStream();
    const chunk = new TextEncoder().encode('9'.repeat(64 * 1024));
    for (let i = 0; i < 160; i++) stream.push(chunk);
    stream.push(new TextEncoder().encode(`\n${GPS_EXAMPLE}\n`));
    expect(stream.end()).toEqual({
      lines: 2,
      indexed: 1,
      problems: [{ line: 1, field: '*', reason: 'lineTooLong' }],
      rejection: undefined,
    });
  });
});
