// `voltas demo`: demo accounts (rider, seller, admin), devices and generated sessions on real tracks,
// so the app can be tried without a lap timer; loading again adds nothing new.
import type { Kysely } from 'kysely';
import { generateSession } from '#core/sim/session-generator.ts';
import type { BlobStore } from '#server/blobs/blob-store.ts';
import type { DB } from '#server/db/schema.ts';
import { DEMO_ACCOUNTS, DEMO_DEVICE_ID } from '#server/lib/demo-accounts.ts';
import { loadTracks } from '#server/lib/track-files.ts';
import { hashToken, newToken } from '#server/lib/tokens.ts';
import { insertDevice } from '../devices/devices.repository';
import { loadDemoFleet } from './demo-fleet';
import type { SessionReceiver } from '../sessions/session-receiver.service';
import { anyUserExists, ensureUser, setBuyerDetails, setRoles } from '../users/users.repository';

/** The demo rider's own device. */
const DEMO_RIDER_DEVICE_ID = '000000000042';
/** Stock of the demo seller (owned by the company account until sold). */
const DEMO_STOCK_DEVICE_IDS = ['000000000101', '000000000102'];

const DEMO_SESSIONS: { device: string; track: string; date: string; seed: number; heats: number }[] = [
  { device: DEMO_DEVICE_ID, track: 'Interlagos', date: '04102026', seed: 101, heats: 4 },
  { device: DEMO_DEVICE_ID, track: 'Interlagos', date: '08112026', seed: 102, heats: 3 },
  { device: DEMO_DEVICE_ID, track: 'Silverstone', date: '12072026', seed: 103, heats: 2 },
  { device: DEMO_DEVICE_ID, track: 'Monza', date: '30082026', seed: 104, heats: 2 },
  { device: DEMO_RIDER_DEVICE_ID, track: 'Curitiba', date: '19092026', seed: 201, heats: 3 },
  { device: DEMO_RIDER_DEVICE_ID, track: 'Interlagos', date: '15112026', seed: 202, heats: 4 },
];

/**
 * Loads the demo accounts (rider, seller, admin), the demo device 000000000001 and the demo
 * rider's device with generated sessions on real tracks. Idempotent (re-sending identical files
 * is a no-op).
 */
export async function loadDemo(
  deps: { db: Kysely<DB>; blobs: BlobStore; receiver: SessionReceiver },
  opts: { onlyIfEmpty: boolean; companyAccount: string },
): Promise<string> {
  const { db, blobs, receiver } = deps;
  if (opts.onlyIfEmpty) {
    if (await anyUserExists(db)) return 'demo: data dir already in use, nothing loaded';
  }
  const rider = DEMO_ACCOUNTS.find((a) => a.role === 'rider')!.email;
  const seller = DEMO_ACCOUNTS.find((a) => a.role === 'seller')!.email;
  for (const account of DEMO_ACCOUNTS) {
    await ensureUser(db, account.email, account.name);
    await setRoles(db, account.email, {
      adm: account.role === 'admin' ? '1' : '',
      seller: account.role === 'seller' ? '1' : '',
    });
  }
  await ensureUser(db, opts.companyAccount, 'Voltas (estoque)');
  await setBuyerDetails(db, rider, { userSeller: seller, nomePiloto: 'Ana Piloto', numeroMoto: '27' });
  const devices = [
    { id: DEMO_DEVICE_ID, owner: '', seller: '', name: 'Demonstração' },
    { id: DEMO_RIDER_DEVICE_ID, owner: rider, seller, name: 'Moto da Ana' },
    ...DEMO_STOCK_DEVICE_IDS.map((id) => ({ id, owner: opts.companyAccount, seller, name: '' })),
  ];
  for (const d of devices) {
    // A random token nobody knows: demo devices upload only through this loader.
    await insertDevice(db, { ...d, tokenHash: hashToken(newToken()) }, { ifAbsent: true });
  }
  const tracks = new Map(loadTracks().map((t) => [t.name, t]));
  let samples = 0;
  for (const s of DEMO_SESSIONS) {
    const generated = generateSession(tracks.get(s.track)!, { seed: s.seed, heats: s.heats });
    const owner = s.device === DEMO_DEVICE_ID ? '' : rider;
    for (const [kind, six] of [
      ['gps', generated.gpsSix],
      ['lap', generated.lapSix],
    ] as const) {
      await receiver.receive({ deviceId: s.device, owner, track: s.track, date: s.date, kind, body: Buffer.from(six) });
    }
    samples += generated.sampleCount;
  }
  await receiver.drain();
  const fleet = await loadDemoFleet(db, blobs, {
    demoDevices: [DEMO_RIDER_DEVICE_ID, ...DEMO_STOCK_DEVICE_IDS],
    companyAccount: opts.companyAccount,
    seller,
    admin: DEMO_ACCOUNTS.find((a) => a.role === 'admin')!.email,
  });
  return `demo: ${DEMO_ACCOUNTS.length} accounts (${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}), devices ${devices.map((d) => d.id).join(', ')}, ${DEMO_SESSIONS.length} sessions (${samples} GPS samples)${fleet ? `, a fleet of ${fleet} more devices with a finished and a halted rollout` : ''}`;
}
