import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys';

// The web's one query layer (issue 63) is held by lint: a key written out by hand, or a component
// asking the server itself, is refused; these show the rule bites, and allows what it must.
const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('one query layer', () => {
  it.each([
    [
      'web/src/features/laps/laps-page.tsx',
      "const q = useQuery({ queryKey: ['my-sessions', track], queryFn: load });",
      /queryKeys.*cache shared by accident/,
    ],
    [
      'web/src/lib/history-api.ts',
      "export const useRecords = () => useQuery({ queryKey: ['records'], queryFn: load });",
      /queryKeys/,
    ],
    ['web/src/components/share-button.tsx', "qc.invalidateQueries({ queryKey: ['shares'] });", /queryKeys/],
    [
      'web/src/lib/preferences.ts',
      "useMutation({ mutationKey: ['me', 'preferences'], mutationFn: save });",
      /queryKeys/,
    ],
    [
      'web/src/features/analytics/coaching.tsx',
      "import { apiRequest } from '#web/lib/api-client.ts';\nexport const a = apiRequest;",
      /through an api module/,
    ],
    [
      'web/src/components/own-lap-picker.tsx',
      "export const load = () => fetch('/api/sessions');",
      /through an api module/,
    ],
    [
      'web/src/features/home/my-sessions-block.tsx',
      'const q = useQuery({ queryKey: queryKeys.records, queryFn: load });',
      /Define the query once/,
    ],
  ])('refuses %s: %s', async (file, code, message) => {
    const found = await problems(file, code);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  });

  it.each([
    ['web/src/lib/query-keys.ts', "export const keys = { records: ['records'] as const };"],
    [
      'web/src/lib/history-api.ts',
      'export const q = () => queryOptions({ queryKey: queryKeys.records, queryFn: load });',
    ],
    ['web/src/features/home/my-sessions-block.tsx', 'const q = useQuery(newestSessionsQuery(3));'],
    ['web/src/features/admin/firmware.api.ts', "export const a = () => apiRequest('/api/admin/fleet');"],
  ])('allows %s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

describe('query keys', () => {
  const session = { device: 'D1', track: 'Interlagos', date: '2026-11-29' };

  it('gives each list of sessions a key of its own', () => {
    // Once two lists (20 a page, checked; 100 a page, read as its type) shared ['my-sessions', track].
    const keys = [
      queryKeys.mySessions.pages('Interlagos', 20),
      queryKeys.mySessions.pages('Interlagos', 100),
      queryKeys.mySessions.pages('', 20),
      queryKeys.mySessions.newest(1),
      queryKeys.mySessions.newest(3),
      // A track may be called anything, 'newest' or 'pages' too.
      queryKeys.mySessions.pages('newest', 1),
    ].map((k) => JSON.stringify(k));
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k.startsWith(JSON.stringify(queryKeys.mySessions.all).slice(0, -1))).toBe(true);
  });

  it("puts a session's answers under their resource's prefix, so one refresh reaches them", () => {
    const resources = [queryKeys.laps, queryKeys.analysis, queryKeys.gpsColumns, queryKeys.trackLapTimes];
    const names = new Set(resources.map((r) => r.all[0]));
    expect(names.size).toBe(resources.length);
    for (const r of resources) {
      const key = r.of(session);
      expect(key.slice(0, 1)).toEqual(r.all);
      expect(key.slice(1)).toEqual([session.device, session.track, session.date]);
    }
    expect(queryKeys.trackAnalysis.of(session, {}).slice(0, 1)).toEqual(queryKeys.trackAnalysis.all);
    expect(queryKeys.coaching.of(session, { lap: 'A3' }, 'metric').slice(0, 1)).toEqual(queryKeys.coaching.all);
  });
});
