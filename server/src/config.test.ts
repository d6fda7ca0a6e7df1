import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'voltas-cfg-'));

describe('loadConfig', () => {
  it('has embedded defaults and generates SECRET_KEY into the data dir once', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a).toMatchObject({ port: 3000, host: '127.0.0.1', publicUrl: 'http://127.0.0.1:3000', databaseUrl: undefined, s3: undefined, google: undefined });
    const b = loadConfig({ DATA_DIR: dir });
    expect(b.secretKey).toBe(a.secretKey);
    expect(readFileSync(path.join(dir, 'secret.key'), 'utf8').trim()).toBe(a.secretKey);
    expect(statSync(path.join(dir, 'secret.key')).mode & 0o077).toBe(0);
  });

  it('honours PORT, HOST and DATA_DIR', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir, PORT: '4123', HOST: '0.0.0.0' });
    expect(c.port).toBe(4123);
    expect(c.host).toBe('0.0.0.0');
    expect(c.dataDir).toBe(dir);
    expect(c.publicUrl).toBe('http://127.0.0.1:4123');
  });

  it('stops with a clear message on malformed values', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: tmp(), SECRET_KEY: 'short' })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: 'only-id' })).toThrow(ConfigError);
  });

  it('refuses the local identity provider when NODE_ENV=production', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' })).toThrow(/local identity provider is refused/);
  });

  it('behind https (PUBLIC_URL https): Secure cookies and HSTS', async () => {
    const config = loadConfig({ DATA_DIR: tmp(), PUBLIC_URL: 'https://voltas.example.com', TRUST_PROXY: 'true', LOG_LEVEL: 'silent' });
    const { app } = await buildApp(config, { webRoot: '/nonexistent' });
    const res = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: 'voltas_session=abc', 'x-forwarded-proto': 'https' } });
    expect(String(res.headers['set-cookie'])).toMatch(/voltas_session=;.*HttpOnly.*Secure.*SameSite=Lax/i);
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
    const config = loadConfig({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'secret', LOG_LEVEL: 'silent' });
    const { app, idp } = await buildApp(config, { webRoot: '/nonexistent' });
    expect(idp.description).toContain('Google');
    expect(idp.authParams).toEqual({ prompt: 'select_account' });
    const res = await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    expect(res.statusCode).toBe(404);
    await app.close();
  });
});
