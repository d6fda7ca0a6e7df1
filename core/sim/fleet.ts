// A simulated fleet's plan (issue 61): which devices misbehave and how, decided by index and seed so a
// run can be repeated; and the checks a device makes of a signed manifest before it downloads.
import type { FirmwareManifest } from '../contracts/firmware.contract.ts';

/**
 * healthy: installs and confirms; fails-install: the install fails (a bad flash);
 * reboot-loop: boots the new image, resets until its bootloader rolls back;
 * lies-about-class: claims the fleet's class while its board is another.
 */
type FleetBehaviour = 'healthy' | 'fails-install' | 'reboot-loop' | 'lies-about-class';

export interface FleetPlanOptions {
  /** Share (0..1) of the fleet whose install fails. */
  failShare?: number;
  /** How many devices boot-loop on the new image. */
  rebootLoops?: number;
  /** How many claim a class they are not. */
  liars?: number;
  /** Share (0..1) of downloads whose link drops (and resumes by Range). */
  dropShare?: number;
  seed?: number;
}

export interface PlannedDevice {
  behaviour: FleetBehaviour;
  dropsLink: boolean;
}

/** A small deterministic generator (mulberry32): the same seed plans the same fleet. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Which of `count` devices misbehave: liars first, then boot loops, then a share of failed installs, in a shuffled order. */
export function planFleet(count: number, opts: FleetPlanOptions = {}): PlannedDevice[] {
  const next = random(opts.seed ?? 1);
  const order = Array.from({ length: count }, (_, i) => i).sort(() => next() - 0.5);
  const behaviours = new Array<FleetBehaviour>(count).fill('healthy');
  let k = 0;
  for (let i = 0; i < (opts.liars ?? 0) && k < count; i++) behaviours[order[k++]!] = 'lies-about-class';
  for (let i = 0; i < (opts.rebootLoops ?? 0) && k < count; i++) behaviours[order[k++]!] = 'reboot-loop';
  const failing = Math.round(count * (opts.failShare ?? 0));
  for (let i = 0; i < failing && k < count; i++) behaviours[order[k++]!] = 'fails-install';
  return behaviours.map((behaviour) => ({ behaviour, dropsLink: next() < (opts.dropShare ?? 0) }));
}

/** Compares dotted versions numerically (1.10.0 > 1.9.0). */
function compare(a: string, b: string): number {
  const na = a.split('-')[0]!.split('.').map(Number);
  const nb = b.split('-')[0]!.split('.').map(Number);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const d = (na[i] || 0) - (nb[i] || 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/**
 * What a device checks of a manifest whose signature it verified, before downloading: not expired
 * (a stale offer replayed), for its own board, newer than what it runs (never backwards), and
 * installable from its version. Returns the failure code to report, or null.
 */
export function checkManifest(
  m: FirmwareManifest,
  device: { realClass: string; version: string; installedSeq: number },
  now: Date,
): 'expired' | 'class-mismatch' | 'not-newer' | 'below-min-from' | null {
  if (Date.parse(m.expires) <= now.getTime()) return 'expired';
  if (m.class !== device.realClass) return 'class-mismatch';
  if (m.seq <= device.installedSeq || compare(m.version, device.version) <= 0) return 'not-newer';
  if (m.minFrom && compare(device.version, m.minFrom) < 0) return 'below-min-from';
  return null;
}
