import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import {
  decide,
  mayRenameTrack,
  mayRideTrack,
  maySetTrackShared,
  type Access,
  type Subject,
  type TrackOwnership,
} from './policy';

describe('decide (the policy, pure)', () => {
  const anon: Subject = { user: null, device: null };
  const rider: Subject = { user: { admin: false, seller: false, disabled: false }, device: null };
  const seller: Subject = { user: { admin: false, seller: true, disabled: false }, device: null };
  const admin: Subject = { user: { admin: true, seller: false, disabled: false }, device: null };
  const disabledAdmin: Subject = { user: { admin: true, seller: true, disabled: true }, device: null };
  const device: Subject = { user: null, device: { ownerDisabled: false } };
  const deviceOfDisabled: Subject = { user: null, device: { ownerDisabled: true } };
  const table: [Access, Subject, string][] = [
    ['public', anon, 'allow'],
    ['public', device, 'allow'],
    ['rider', anon, 'unauthenticated'],
    ['rider', device, 'unauthenticated'],
    ['rider', rider, 'allow'],
    ['rider', seller, 'allow'],
    ['rider', admin, 'allow'],
    ['seller', rider, 'forbidden'],
    ['seller', admin, 'forbidden'],
    ['seller', seller, 'allow'],
    ['seller', anon, 'unauthenticated'],
    ['admin', rider, 'forbidden'],
    ['admin', seller, 'forbidden'],
    ['admin', admin, 'allow'],
    ['admin', anon, 'unauthenticated'],
    ['device', anon, 'unauthenticated'],
    ['device', rider, 'unauthenticated'],
    ['device', admin, 'unauthenticated'],
    ['device', device, 'allow'],
    ['device', deviceOfDisabled, 'disabled'],
    ['public', deviceOfDisabled, 'allow'],
    ['rider', disabledAdmin, 'disabled'],
    ['admin', disabledAdmin, 'disabled'],
    ['seller', disabledAdmin, 'disabled'],
  ];
  it.each(table)('%s route, subject %#: %s', (access, subject, want) => {
    expect(decide(access, subject)).toBe(want);
  });
});

describe('track rules (pure)', () => {
  const aOwn: TrackOwnership = { source: 'derived', shared: 0, created_by: 'a@x' };
  const aShared: TrackOwnership = { ...aOwn, shared: 1 };
  const circuit: TrackOwnership = { source: 'catalogue', shared: 1, created_by: 'a@x' };
  const a = { email: 'a@x', admin: false };
  const b = { email: 'b@x', admin: false };
  const admin = { email: 'c@x', admin: true };
  it("a rider's traces match everyone's tracks and their own, never another rider's own", () => {
    expect([mayRideTrack('a@x', aOwn), mayRideTrack('b@x', aOwn)]).toEqual([true, false]);
    expect([mayRideTrack('b@x', aShared), mayRideTrack('b@x', circuit)]).toEqual([true, true]);
  });
  it('a rider renames only a derived track still their own; an admin any', () => {
    expect([
      mayRenameTrack(a, aOwn),
      mayRenameTrack(b, aOwn),
      mayRenameTrack(a, aShared),
      mayRenameTrack(a, circuit),
    ]).toEqual([true, false, false, false]);
    expect([mayRenameTrack(admin, aOwn), mayRenameTrack(admin, circuit)]).toEqual([true, true]);
  });
  it('only an admin shares, and only a derived track', () => {
    expect([maySetTrackShared(admin, aOwn), maySetTrackShared(admin, circuit), maySetTrackShared(a, aOwn)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('policy', () => {
  it('refuses to register an /api route that declares no access rule', async () => {
    const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'voltas-pol-')), LOG_LEVEL: 'silent' });
    const { app } = await buildApp(config, { webRoot: '/nonexistent' });
    expect(() => app.get('/api/undeclared', async () => ({}))).toThrow(/declares no access rule/);
    await app.close();
  });

  it('records every /api route with its rule, and signed-out calls to non-public ones are refused', async () => {
    const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'voltas-pol-')), LOG_LEVEL: 'silent' });
    const { app } = await buildApp(config, { webRoot: '/nonexistent' });
    await app.ready();
    const api = app.accessRules.filter(
      (r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD',
    );
    expect(api.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/me', 'PUT /api/me/profile', 'GET /api/health']),
    );
    for (const rule of api.filter((r) => r.access !== 'public')) {
      const res = await app.inject({
        method: rule.method as 'GET',
        url: rule.url.replace(/:(\w+)/g, 'x'),
        payload: rule.method === 'GET' ? undefined : {},
      });
      expect([401, 403], `${rule.method} ${rule.url}`).toContain(res.statusCode);
    }
    await app.close();
  });
});
