// `voltas simulate --fleet N`: many simulated devices against a running server, each doing what a
// lap timer does in the field: check in, upload its sessions, take an offered image (verify the
// signature and manifest, download it by ranges, resuming after a dropped link, check its sha256),
// install it, and confirm after rebooting, or fail as the plan tells it.
import { createHash, type KeyObject } from 'node:crypto';
import { parseArgs } from 'node:util';
import { firmwareManifestSchema, type FirmwareOffer } from '#core/contracts/firmware.contract.ts';
import { checkManifest, planFleet, type PlannedDevice } from '#core/sim/fleet.ts';
import { generateSession } from '#core/sim/session-generator.ts';
import { verifyManifest } from '../lib/firmware-signing';
import { findTrack } from '../lib/track-files';
import { uploadWithRetry } from './simulate';

export interface FleetDevice {
  id: string;
  token: string;
}

export interface FleetOptions {
  /** One server, or several instances of one (device i talks to the i-th modulo their number). */
  server: string | string[];
  devices: FleetDevice[];
  plan: PlannedDevice[];
  /** The keys a device trusts (FIRMWARE_PUBLIC_KEYS). */
  keys: KeyObject[];
  hardwareClass: string;
  version: string;
  /** Check-in rounds per device (an offer is taken in the round it comes). */
  rounds: number;
  /** Each device uploads a generated session in its first round (reporting it queued first). */
  sessions?: { track: string; date: string } | undefined;
  /** Devices running at once. */
  concurrency?: number;
  log?: (line: string) => void;
  /** Awaited after each step a device reports and each link it drops ('link-dropped'): a test's hook. */
  onStep?: (deviceId: string, step: string) => void | Promise<void>;
}

export interface FleetSummary {
  checkIns: number;
  offers: number;
  downloads: number;
  resumed: number;
  /** Downloads told to come back later (503 busy), then resumed. */
  busy: number;
  /** Downloads stopped because the offer was withdrawn (409: the rollout halted, aborted or expired). */
  withdrawn: number;
  confirmed: number;
  failed: Record<string, number>;
  uploads: number;
  versions: Record<string, number>;
}

interface DeviceState extends FleetDevice, PlannedDevice {
  /** The instance it talks to. */
  base: string;
  version: string;
  installedSeq: number;
  resetReason: string;
}

/** The server took back the offer mid-download (409): the device drops it and reports nothing more. */
class OfferWithdrawn extends Error {}

/** The board a liar really is: not the class it claims. */
const realClassOf = (d: DeviceState, claimed: string) =>
  d.behaviour === 'lies-about-class' ? `${claimed}-other` : claimed;

export async function runFleet(opts: FleetOptions): Promise<FleetSummary> {
  const bases = (Array.isArray(opts.server) ? opts.server : [opts.server]).map((s) => s.replace(/\/+$/, ''));
  const log = opts.log ?? (() => undefined);
  const onStep = opts.onStep ?? (() => undefined);
  const summary: FleetSummary = {
    checkIns: 0,
    offers: 0,
    downloads: 0,
    resumed: 0,
    busy: 0,
    withdrawn: 0,
    confirmed: 0,
    failed: {},
    uploads: 0,
    versions: {},
  };
  const call = async (d: DeviceState, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${d.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${d.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path} as ${d.id}: HTTP ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  const checkIn = async (d: DeviceState, extra: Record<string, unknown> = {}) => {
    summary.checkIns++;
    const answer = (await call(d, 'POST', '/api/device/v1/check-in', {
      firmware: { version: d.version, slot: d.installedSeq % 2 ? 'b' : 'a' },
      hardware: { class: opts.hardwareClass },
      battery: 70,
      freeStorageKb: 400_000,
      queuedSessions: 0,
      resetReason: d.resetReason,
      rssi: -60,
      uptimeS: 600,
      ...extra,
    })) as { update: FirmwareOffer | null };
    d.resetReason = 'power-on';
    return answer.update;
  };
  const report = async (d: DeviceState, rolloutId: string, state: string, error?: string) => {
    await call(d, 'POST', '/api/device/v1/firmware-report', { rolloutId, state, ...(error ? { error } : {}) });
    await onStep(d.id, state);
  };
  const fail = async (d: DeviceState, rolloutId: string, state: 'failed' | 'rolled-back', code: string) => {
    summary.failed[code] = (summary.failed[code] ?? 0) + 1;
    log(`${d.id}: ${state} (${code})`);
    await report(d, rolloutId, state, code);
  };

  /** The image, by ranges: a dropped link (the body cut a third of the way) resumes where it stopped. */
  async function download(d: DeviceState, url: string, size: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let got = 0;
    let etag = '';
    let drops = d.dropsLink ? 2 : 0;
    while (got < size) {
      const controller = new AbortController();
      const res = await fetch(`${d.base}${url}`, {
        headers: {
          authorization: `Bearer ${d.token}`,
          ...(got ? { range: `bytes=${got}-`, ...(etag ? { 'if-range': etag } : {}) } : {}),
        },
        signal: controller.signal,
      });
      if (res.status === 503) {
        // The server is serving as many images as it will at once: back off as it says, then resume.
        await res.arrayBuffer();
        const seconds = Math.min(30, Number(res.headers.get('retry-after')) || 2);
        summary.busy++;
        await new Promise((r) => setTimeout(r, seconds * 1000 * (0.5 + Math.random() / 2)));
        continue;
      }
      if (res.status === 409) {
        await res.arrayBuffer();
        throw new OfferWithdrawn();
      }
      if (res.status !== 200 && res.status !== 206) throw new Error(`download as ${d.id}: HTTP ${res.status}`);
      if (res.status === 200 && got) {
        parts.length = 0; // the image changed under us: start over
        got = 0;
      }
      etag = res.headers.get('etag') ?? etag;
      const cutAt = drops > 0 ? got + Math.floor((size - got) / 3) : Infinity;
      const reader = res.body!.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const keep = Math.min(value.length, cutAt - got);
          parts.push(Buffer.from(value.subarray(0, keep)));
          got += keep;
          if (got >= cutAt) {
            drops--;
            summary.resumed++;
            controller.abort();
            break;
          }
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
      }
      if (controller.signal.aborted) await onStep(d.id, 'link-dropped');
    }
    summary.downloads++;
    return Buffer.concat(parts);
  }

  async function takeOffer(d: DeviceState, offer: FirmwareOffer): Promise<void> {
    summary.offers++;
    if (!verifyManifest(offer.manifest, offer.signature, opts.keys))
      return fail(d, offer.rolloutId, 'failed', 'bad-signature');
    const m = firmwareManifestSchema.parse(JSON.parse(offer.manifest));
    const refused = checkManifest(m, { realClass: realClassOf(d, opts.hardwareClass), ...d }, new Date());
    if (refused) return fail(d, offer.rolloutId, 'failed', refused);
    await report(d, offer.rolloutId, 'downloading');
    let image: Buffer;
    try {
      image = await download(d, offer.url, m.size);
    } catch (err) {
      if (!(err instanceof OfferWithdrawn)) throw err;
      // The rollout halted (or was aborted) while this device downloaded: the server no longer
      // counts on it, so it drops the partial image, reports nothing more, and checks in as usual.
      summary.withdrawn++;
      log(`${d.id}: offer withdrawn mid-download`);
      return;
    }
    if (createHash('sha256').update(image).digest('hex') !== m.sha256)
      return fail(d, offer.rolloutId, 'failed', 'hash-mismatch');
    await report(d, offer.rolloutId, 'downloaded');
    await report(d, offer.rolloutId, 'installing');
    if (d.behaviour === 'fails-install') return fail(d, offer.rolloutId, 'failed', 'install-failed');
    const previous = d.version;
    d.version = m.version;
    if (d.behaviour === 'reboot-loop') {
      // The new image resets before it can confirm; the bootloader goes back to the old slot.
      for (let i = 0; i < 3; i++)
        await checkIn(d, { firmware: { version: m.version, pendingVerify: true }, resetReason: 'watchdog' });
      d.version = previous;
      d.resetReason = 'rollback';
      return fail(d, offer.rolloutId, 'rolled-back', 'boot-loop');
    }
    await checkIn(d, { firmware: { version: m.version, pendingVerify: true }, resetReason: 'software' });
    await report(d, offer.rolloutId, 'rebooted');
    await report(d, offer.rolloutId, 'confirmed');
    d.installedSeq = m.seq;
    summary.confirmed++;
    log(`${d.id}: confirmed ${m.version}`);
  }

  async function uploadSession(d: DeviceState, index: number): Promise<void> {
    const s = opts.sessions!;
    const track = findTrack(s.track);
    if (!track) throw new Error(`Unknown track "${s.track}"`);
    const session = generateSession(track, { seed: 1000 + index, heats: 1 });
    const path = (file: string) =>
      new URL(`${d.base}/api/device/v1/sessions/${encodeURIComponent(track.name)}/${s.date}/${file}`);
    const quiet = { progress: () => undefined };
    for (const [file, body] of [
      ['gps.six', session.gpsSix],
      ['lap.six', session.lapSix],
    ] as const) {
      const res = await uploadWithRetry(path(file), d.token, Buffer.from(body), file, quiet);
      if (res.status !== 200) throw new Error(`${file} as ${d.id}: HTTP ${res.status} ${res.body}`);
    }
    summary.uploads++;
  }

  const states: DeviceState[] = opts.devices.map((d, i) => ({
    ...d,
    ...opts.plan[i]!,
    base: bases[i % bases.length]!,
    version: opts.version,
    installedSeq: 0,
    resetReason: 'power-on',
  }));
  const run = async (d: DeviceState, index: number) => {
    for (let round = 0; round < opts.rounds; round++) {
      if (round === 0 && opts.sessions) {
        // Sessions waiting to go up: the server offers nothing until they are sent.
        const offer = await checkIn(d, { queuedSessions: 1 });
        if (offer) throw new Error(`${d.id} was offered an image while it had a session to send`);
        await uploadSession(d, index);
      }
      const offer = await checkIn(d);
      if (offer) await takeOffer(d, offer);
    }
    summary.versions[d.version] = (summary.versions[d.version] ?? 0) + 1;
  };
  // A pool of workers: `concurrency` devices at once, each through `step`.
  const pool = async (step: (d: DeviceState, index: number) => Promise<unknown>) => {
    let next = 0;
    const worker = async () => {
      while (next < states.length) {
        const i = next++;
        await step(states[i]!, i);
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 20, states.length) }, worker));
  };
  // A fleet in the field: every device has checked in (its class and version known to the server)
  // before the first one installs, so a rollout is never judged done for want of devices it has not
  // met. An offer made now is taken in the first round.
  await pool((d) => checkIn(d, opts.sessions ? { queuedSessions: 1 } : {}));
  await pool(run);
  return summary;
}

export const FLEET_USAGE = `  simulate --fleet N --server URL[,URL…] [--rounds 2] [--class vt1] [--version 1.0.0] [--fail-share 0.2]
           [--reboot-loops 1] [--liars 1] [--drop-share 0.5] [--sessions] [--seed N] [--owner e] [--concurrency 20]
                                           N simulated devices (registered here as 7700000000xx, tokens rotated)
                                           check in, upload, take offered firmware and confirm or fail as told;
                                           with several URLs (instances of one server) the devices split across them`;

/** The fleet command: registers the devices (through `register`), runs them, prints the summary. */
export async function fleetCommand(
  args: string[],
  deps: {
    register: (ids: string[], owner: string | undefined) => Promise<FleetDevice[]>;
    keys: KeyObject[];
    today: string;
    out?: { write(text: string): unknown };
  },
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      fleet: { type: 'string' },
      server: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      class: { type: 'string', default: 'vt1' },
      version: { type: 'string', default: '1.0.0' },
      'fail-share': { type: 'string', default: '0' },
      'reboot-loops': { type: 'string', default: '0' },
      liars: { type: 'string', default: '0' },
      'drop-share': { type: 'string', default: '0.5' },
      sessions: { type: 'boolean', default: false },
      seed: { type: 'string', default: '1' },
      owner: { type: 'string' },
      concurrency: { type: 'string', default: '20' },
    },
  });
  const out = deps.out ?? process.stderr;
  const count = Number(values.fleet);
  const numbers = [values.rounds, values['fail-share'], values['reboot-loops'], values.liars, values['drop-share']].map(
    Number,
  );
  const servers = (values.server ?? '').split(',').map((s) => s.trim());
  if (
    !servers.every((s) => /^https?:\/\/./.test(s)) ||
    !Number.isInteger(count) ||
    count < 1 ||
    count > 9999 ||
    numbers.some((n) => !(n >= 0))
  ) {
    out.write(`Usage:\n${FLEET_USAGE}\n`);
    return 2;
  }
  if (!deps.keys.length) {
    out.write('FIRMWARE_PUBLIC_KEYS is empty: the simulated devices would trust no image.\n');
    return 2;
  }
  const ids = Array.from({ length: count }, (_, i) => `77${String(i + 1).padStart(10, '0')}`);
  const devices = await deps.register(ids, values.owner);
  const summary = await runFleet({
    server: servers,
    devices,
    plan: planFleet(count, {
      failShare: Number(values['fail-share']),
      rebootLoops: Number(values['reboot-loops']),
      liars: Number(values.liars),
      dropShare: Number(values['drop-share']),
      seed: Number(values.seed) || 1,
    }),
    keys: deps.keys,
    hardwareClass: values.class,
    version: values.version,
    rounds: Number(values.rounds),
    sessions: values.sessions ? { track: 'Interlagos', date: deps.today } : undefined,
    concurrency: Number(values.concurrency) || 20,
    log: (line) => out.write(`${line}\n`),
  });
  (deps.out ?? process.stdout).write(`${JSON.stringify(summary)}\n`);
  return 0;
}
