import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSession, type GeneratedSession } from '#core/sim/session-generator.ts';
import { loadTracks } from '#server/lib/track-files.ts';

/**
 * An old installation as `voltas import-firebase` reads it, built from generated sessions on real
 * tracks: a Firestore JSON export (lapTime + join) and a copy of the bucket in the spec's layout.
 * It holds good data and, beside it, the kinds of damage a real export has, each of which must be
 * reported and skipped.
 */
export interface BuiltExport {
  dir: string;
  firestore: string;
  storage: string;
  rider: { email: string; device: string; wifi: string; senha: string; nomePiloto: string; numeroMoto: string };
  seller: string;
  admin: string;
  stockDevice: string;
  sessions: { track: string; date: string; generated: GeneratedSession; gps: boolean }[];
  /** Item names that must appear among the skipped, with a word of their reason. */
  expectedSkips: [string, RegExp][];
}

export function buildFirebaseExport(opts: { prefix?: string } = {}): BuiltExport {
  const p = opts.prefix ?? 'antiga';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'voltas-firebase-'));
  const rider = {
    email: `ana.${p}@exemplo.com.br`,
    device: '000000000201',
    wifi: 'Box Ana',
    senha: 's3nh@ Wi-Fi',
    nomePiloto: 'Ana Antiga',
    numeroMoto: '93',
  };
  const seller = `loja.${p}@exemplo.com.br`;
  const admin = `chefe.${p}@exemplo.com.br`;
  const stockDevice = '000000000202';
  const tracks = new Map(loadTracks().map((t) => [t.name, t]));
  const sessions = [
    {
      track: 'Interlagos',
      date: '15112026',
      generated: generateSession(tracks.get('Interlagos')!, { seed: 301, heats: 2, lapsPerHeat: [3, 4] }),
      gps: true,
    },
    {
      track: 'Curitiba',
      date: '19092026',
      generated: generateSession(tracks.get('Curitiba')!, { seed: 302, heats: 1, lapsPerHeat: [4, 5] }),
      gps: false,
    },
  ];

  const firestore = path.join(dir, 'firestore.json');
  writeFileSync(
    firestore,
    JSON.stringify(
      {
        lapTime: {
          [rider.email]: {
            hardware: [rider.device],
            adm: '',
            seller: '',
            wifi: rider.wifi,
            senha: rider.senha,
            nomePiloto: rider.nomePiloto,
            numeroMoto: rider.numeroMoto,
            userSeller: seller,
          },
          [seller]: { hardware: '', adm: '', seller: '1', wifi: '', userSeller: '' },
          [admin]: { hardware: '000000000001', adm: '1', seller: '', wifi: '' },
          'sem-arroba': { hardware: '', wifi: '' },
          [`ruim.${p}@exemplo.com.br`]: { hardware: ['abc'], wifi: '' },
          [`xss.${p}@exemplo.com.br`]: { hardware: '', wifi: '', nomePiloto: '<img src=x onerror=alert(1)>' },
        },
        join: {
          [rider.device]: { owner: rider.email, seller, up: '1', version: '2.3.1', name: 'Moto da Ana' },
          [stockDevice]: { owner: '', seller, up: '', version: '2.3.1', name: '' },
          '12': { owner: rider.email },
          '000000000203': 'not a document',
        },
      },
      null,
      2,
    ),
  );

  const storage = path.join(dir, 'bucket');
  const put = (rel: string, body: string | Buffer) => {
    mkdirSync(path.dirname(path.join(storage, rel)), { recursive: true });
    writeFileSync(path.join(storage, rel), body);
  };
  for (const s of sessions) {
    put(`${rider.device}/${s.track}/${s.date}/lap.six`, s.generated.lapSix);
    if (s.gps) put(`${rider.device}/${s.track}/${s.date}/gps.six`, s.generated.gpsSix);
  }
  put(`${rider.device}/Interlagos/15112026/notes.txt`, 'not a six file');
  put(`${rider.device}/Interlagos/31022026/lap.six`, sessions[0]!.generated.lapSix);
  put(`${rider.device}/Monza/01012026/lap.six`, Buffer.from([0xff, 0xfe, 0x00, 0x31, 0x00]));
  put(`000000000999/Monza/01012026/lap.six`, sessions[0]!.generated.lapSix);
  put(`000000000001/Monza/30082026/lap.six`, sessions[0]!.generated.lapSix);
  mkdirSync(path.join(storage, rider.device, 'Spa'), { recursive: true });
  symlinkSync('/etc', path.join(storage, rider.device, 'Spa', '01012026'));

  return {
    dir,
    firestore,
    storage,
    rider,
    seller,
    admin,
    stockDevice,
    sessions,
    expectedSkips: [
      ['lapTime/sem-arroba', /e-mail/],
      [`lapTime/ruim.${p}@exemplo.com.br`, /12-digit/],
      ['join/12', /12-digit/],
      ['join/000000000203', /not a document/],
      [`storage/${rider.device}/Interlagos/15112026/notes.txt`, /not lap.six or gps.six/],
      [`storage/${rider.device}/Interlagos/31022026`, /date folder/],
      [`storage/${rider.device}/Monza/01012026/lap.six`, /Not a lap.six file/],
      ['storage/000000000999', /no such device/],
      ['storage/000000000001', /demo device/],
      [`storage/${rider.device}/Spa/01012026`, /symbolic link/],
    ],
  };
}
