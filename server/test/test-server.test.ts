import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, injectFetch, startTestServer, type TestServer } from './test-server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// Route tests that need no socket trust injectFetch to meet the server as fetch does.
describe('fetch through app.inject', () => {
  it('gets what fetch gets over the socket: status, headers, a compressed answer decoded', async () => {
    const injected = injectFetch(server.app);
    for (const path of ['/api/docs/json', '/api/me', '/api/health', '/api/shared/%00']) {
      const [socket, inject] = await Promise.all([fetch(server.baseUrl + path), injected(server.baseUrl + path)]);
      expect(inject.status, path).toBe(socket.status);
      expect(inject.headers.get('content-type'), path).toBe(socket.headers.get('content-type'));
      expect(inject.headers.get('content-encoding'), path).toBe(socket.headers.get('content-encoding'));
      // Each answer has its own request id; the rest is the same.
      const body = async (r: Response) => (await r.text()).replace(/"requestId":"\w+"/, '');
      expect(await body(inject), path).toBe(await body(socket));
    }
    expect((await injected(`${server.baseUrl}/api/docs/json`)).headers.get('content-encoding')).toBe('gzip');
  });

  it('signs a rider in and keeps the cookies, as a browser over the socket does', async () => {
    const overSocket = new Browser(server.baseUrl);
    const overInject = new Browser({ baseUrl: server.baseUrl, fetch: injectFetch(server.app) });
    const signedIn = async (b: Browser) => ({
      status: (await b.signIn('ana@example.com')).status,
      cookies: [...b.cookies.keys()].sort(),
      email: (await b.json('/api/me')).body.email,
    });
    const socket = await signedIn(overSocket);
    expect(socket.email).toBe('ana@example.com');
    expect(await signedIn(overInject)).toEqual(socket);
  });
});
