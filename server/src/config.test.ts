import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { generateFirmwareKey } from './lib/firmware-signing';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'voltas-cfg-'));

describe('loadConfig', () => {
  it('has embedded defaults and generates SECRET_KEY into the data dir once', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      databaseUrl: undefined,
      databasePoolSize: 10,
      s3: undefined,
      google: undefined,
    });
    const b = loadConfig({ DATA_DIR: dir });
    expect(b.secretKey).toBe(a.secretKey);
    expect(readFileSync(path.join(dir, 'secret.key'), 'utf8').trim()).toBe(a.secretKey);
    expect(statSync(path.join(dir, 'secret.key')).mode & 0o077).toBe(0);
  });

  it('honours PORT, HOST and DATA_DIR', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir, PORT: '4123', HOST: '0.0.0.0', LOCAL_SIGN_IN: 'true' });
    expect(c.port).toBe(4123);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toBe(dir);
    expect(c.publicUrl).toBe('http://127.0.0.1:4123');
  });

  it('stops with a clear message on malformed values', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: tmp(), SECRET_KEY: 'short' })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
    expect(() => loadConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: 'only-id' })).toThrow(ConfigError);
  });

  it('takes FIRMWARE_PUBLIC_KEYS as raw Ed25519 keys, and stops on anything else with what to give', () => {
    const keys = [generateFirmwareKey().publicKey, generateFirmwareKey().publicKey];
    expect(
      loadConfig({ DATA_DIR: tmp(), FIRMWARE_PUBLIC_KEYS: ` ${keys[0]}, ${keys[1]} ` }).firmwarePublicKeys,
    ).toEqual(keys);
    expect(loadConfig({ DATA_DIR: tmp() }).firmwarePublicKeys).toEqual([]);
    expect(() => loadConfig({ DATA_DIR: tmp(), FIRMWARE_PUBLIC_KEYS: 'not-a-key' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), FIRMWARE_PUBLIC_KEYS: 'AAAA' })).toThrow(/voltas firmware keygen/);
  });

  it('refuses the local identity provider when NODE_ENV=production', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' })).toThrow(/local identity provider is refused/);
  });

  it('runs the bundled sign-in only on loopback, or with LOCAL_SIGN_IN=true (hole 5: anyone admin on the network)', () => {
    for (const env of [
      { HOST: '0.0.0.0' },
      { HOST: '192.168.1.20' },
      { HOST: '::' },
      { HOST: '127.0.0.1', PUBLIC_URL: 'https://voltas.example.com' },
    ]) {
      expect(() => loadConfig({ DATA_DIR: tmp(), ...env }), JSON.stringify(env)).toThrow(
        /bundled sign-in .* only runs on a loopback HOST and PUBLIC_URL.*GOOGLE_CLIENT_ID.*LOCAL_SIGN_IN=true/,
      );
    }
    for (const env of [
      {},
      { HOST: '127.0.0.1' },
      { HOST: '::1', PORT: '3000' },
      { HOST: 'localhost' },
      { HOST: '127.0.0.5', PUBLIC_URL: 'http://localhost:3000' },
    ]) {
      expect(loadConfig({ DATA_DIR: tmp(), ...env }).host, JSON.stringify(env)).toBeTruthy();
    }
    expect(loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0', LOCAL_SIGN_IN: 'true' }).host).toBe('0.0.0.0');
    expect(
      loadConfig({ DATA_DIR: tmp(), HOST: '0.0.0.0', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).google,
    ).toBeDefined();
  });

  it('logs readable lines in development and JSON lines in production, unless LOG_FORMAT says', () => {
    const google = { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' };
    expect(loadConfig({ DATA_DIR: tmp() }).logFormat).toBe('pretty');
    expect(loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production', ...google }).logFormat).toBe('json');
    expect(loadConfig({ DATA_DIR: tmp(), LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production', LOG_FORMAT: 'pretty', ...google }).logFormat).toBe(
      'pretty',
    );
    expect(() => loadConfig({ DATA_DIR: tmp(), LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });

  it('TRUST_PROXY takes a hop count or addresses, never "trust every hop" (hole 9)', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY=true would trust every X-Forwarded-For hop.*TRUST_PROXY=1/,
    );
    expect(loadConfig({ DATA_DIR: tmp() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
    ]);
    for (const bad of ['yes', '10.0.0.0/33', '300.1.1.1', '11', 'proxy.local'])
      expect(() => loadConfig({ DATA_DIR: tmp(), TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });

  it('behind https (PUBLIC_URL https): Secure cookies and HSTS', async () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      PUBLIC_URL: 'https://voltas.example.com',
      TRUST_PROXY: '1',
      LOCAL_SIGN_IN: 'true',
      LOG_LEVEL: 'silent',
    });
    const { app } = await buildApp(config, { webRoot: '/nonexistent' });
    // Over https the cookie carries the __Host- prefix: this host only, path /, Secure.
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: '__Host-voltas_session=abc', 'x-forwarded-proto': 'https' },
    });
    expect(String(res.headers['set-cookie'])).toMatch(
      /^__Host-voltas_session=;.*Path=\/;.*HttpOnly.*Secure.*SameSite=Lax/i,
    );
    expect(String(res.headers['set-cookie'])).not.toMatch(/Domain=/i);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    const plain = await buildApp(loadConfig({ DATA_DIR: tmp(), LOG_LEVEL: 'silent' }), { webRoot: '/nonexistent' });
    const res2 = await plain.app.inject({ method: 'GET', url: '/' });
    expect(res2.headers['strict-transport-security']).toBeUndefined();
    expect(res2.headers['content-security-policy']).toMatch(/script-src 'self'/);
    // API answers get HSTS behind https too.
    const api = await app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(api.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    await app.close();
    await plain.app.close();
  });

  it('uses Google as the issuer when configured (no local provider mounted)', async () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
      LOG_LEVEL: 'silent',
    });
    const { app, idp } = await buildApp(config, { webRoot: '/nonexistent' });
    expect(idp.description).toContain('Google');
    expect(idp.authParams).toEqual({ prompt: 'select_account' });
    const res = await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});
