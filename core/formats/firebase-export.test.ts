import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExportFormatError, parseFirebaseExport } from './firebase-export';

describe('parseFirebaseExport', () => {
  it('normalizes the spec fields: e-mails lower-cased, hardware from list, id, commas or empty; placeholder dropped', () => {
    const r = parseFirebaseExport(
      JSON.stringify({
        lapTime: {
          'Ana@Exemplo.com': {
            hardware: '000000000042, 000000000043',
            adm: '1',
            seller: 'sim',
            wifi: 'W',
            senha: ' p ',
            nomePiloto: ' Ana ',
            numeroMoto: 27,
            userSeller: 'Loja@Exemplo.com',
          },
          'b@exemplo.com': { hardware: ['000000000001'], adm: true },
          'c@exemplo.com': { hardware: '' },
        },
        join: { '000000000042': { owner: 'ANA@exemplo.com', seller: '', up: 1, version: '2.0', name: 'Moto' } },
      }),
    );
    expect(r.skipped).toEqual([]);
    expect(r.users[0]).toEqual({
      email: 'ana@exemplo.com',
      hardware: ['000000000042', '000000000043'],
      adm: '1',
      seller: '1',
      wifi: 'W',
      senha: ' p ',
      nomePiloto: 'Ana',
      numeroMoto: '27',
      userSeller: 'loja@exemplo.com',
    });
    expect(r.users[1]).toMatchObject({ hardware: [], adm: '1' });
    expect(r.users[2]).toMatchObject({ hardware: [], adm: '', seller: '' });
    expect(r.devices).toEqual([
      { id: '000000000042', owner: 'ana@exemplo.com', seller: '', up: '1', version: '2.0', name: 'Moto' },
    ]);
  });

  it('accepts the __collections__ wrapper of export tools', () => {
    const r = parseFirebaseExport(
      JSON.stringify({ __collections__: { lapTime: { 'a@b.co': { hardware: '', __collections__: {} } }, join: {} } }),
    );
    expect(r.users.map((u) => u.email)).toEqual(['a@b.co']);
  });

  it('skips bad documents with a reason and keeps the rest', () => {
    const r = parseFirebaseExport(
      JSON.stringify({
        lapTime: {
          'a@b.co': { hardware: '' },
          'A@B.co': { hardware: '' },
          'no-at': {},
          'long@b.co': { wifi: 'x'.repeat(33) },
          'ctl@b.co': { nomePiloto: 'a\u0007b' },
          'obj@b.co': { wifi: { nested: true } },
          'hw@b.co': { hardware: ['../../etc'] },
          'list@b.co': [],
        },
        join: { '1': {}, '000000000050': { owner: 'not an email' }, '000000000051': null },
      }),
    );
    expect(r.users.map((u) => u.email)).toEqual(['a@b.co']);
    expect(Object.fromEntries(r.skipped.map((s) => [s.item, s.reason]))).toEqual({
      'lapTime/A@B.co': 'the same e-mail as another document (ids differ only in case)',
      'lapTime/no-at': 'document id is not an e-mail address',
      'lapTime/long@b.co': 'wifi longer than 32 characters',
      'lapTime/ctl@b.co': 'nomePiloto holds control characters',
      'lapTime/obj@b.co': 'wifi is not text',
      'lapTime/hw@b.co': 'hardware holds "../../etc", not a 12-digit device id',
      'lapTime/list@b.co': 'not a document (object)',
      'join/1': 'document id is not a 12-digit device id',
      'join/000000000050': 'owner is not an e-mail address',
      'join/000000000051': 'not a document (object)',
    });
  });

  it('refuses what is not an export at all', () => {
    for (const text of ['', '{"lapTime":', 'null', '"x"', '[]', '{}', '{"join": 3}']) {
      expect(() => parseFirebaseExport(text)).toThrow(ExportFormatError);
    }
  });

  it('never throws anything but ExportFormatError, whatever the JSON (fuzzed)', () => {
    const doc = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }));
    const root = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({
        lapTime: fc.dictionary(fc.string(), fc.oneof(doc, fc.jsonValue())),
        join: fc.dictionary(fc.string(), fc.oneof(doc, fc.jsonValue())),
      }),
    );
    fc.assert(
      fc.property(root, (value) => {
        try {
          const r = parseFirebaseExport(JSON.stringify(value) ?? '');
          // What comes out is what the importer may rely on, whatever came in.
          return (
            r.users.every(
              (u) => typeof u.email === 'string' && u.email === u.email.toLowerCase() && u.email.includes('@'),
            ) &&
            r.devices.every((d) => /^\d{12}$/.test(d.id) && typeof d.owner === 'string') &&
            r.skipped.every((s) => typeof s.item === 'string' && typeof s.reason === 'string' && s.reason.length > 0)
          );
        } catch (err) {
          return err instanceof ExportFormatError;
        }
      }),
      { seed: 42, numRuns: 500 },
    );
  });
});
