import { type Browser, expect, type Page, scrollToSection, signIn, test, uniqueEmail } from './fixtures';

// Issue 35 in Chromium: real recordings imported through 'Importar sessões', and a demo device
// session. Every screen that names the session's best lap names the same time (the logger's, or
// the device's own), and a piece of the recording that is no flying lap is never shown as one:
// no lap time, no "Comparar com meu recorde", no point on the lap-time chart. Each screen fits a
// 360 px phone.
test.use({ viewport: { width: 360, height: 780 } });
test.setTimeout(120_000);

const PHONE = 360;
const TIME = /\d{2}:\d{2}\.\d{3}/;

interface Recording {
  name: string;
  /** From the worktree's root. */
  file: string;
  track: string;
  /** As the screens show it. */
  date: string;
  /** The logger's own time of its best lap (the recording's NOTES.md). */
  best: string;
  /** Whether the file has a lean column (RaceChrono's, calculated from lateral g; TrackAddict has none). */
  lean: boolean;
}

const recordings: Recording[] = [
  {
    // RaceChrono Pro CSV v3 (25 Hz), one lap exported with ~4 s either side: RaceChrono's lap 9, 76.329 s.
    name: 'RaceChrono Tianma lap 9',
    file: '../shared/data/real-logs/session_20251231_111318_tianma_lap9_v3.csv',
    track: 'Shanghai Tianma Circuit',
    date: '31/12/2025',
    best: '01:16.329',
    lean: true,
  },
  {
    name: 'RaceChrono Tianma lap 13',
    file: '../shared/data/real-logs/session_20251231_111959_tianma_lap13_v3.csv',
    track: 'Shanghai Tianma Circuit',
    date: '31/12/2025',
    best: '01:15.934',
    lean: true,
  },
  {
    // TrackAddict (1 Hz): one flying lap, 2:57.527, between an out- and an in-piece that never cross the line twice.
    name: 'TrackAddict Goodwood',
    file: 'server/test/real-recordings/trackaddict-goodwood-2022/Log-20220531-085930 Goodwood Motorcircuit - 2.57.527.csv.gz',
    track: 'Goodwood Motor Circuit',
    date: '31/05/2022',
    best: '02:57.527',
    lean: false,
  },
];

/** A row of a laps table as the rider reads it. */
interface Row {
  name: string;
  time: string;
  /** What its badges say it is: 'saída', 'entrada' or 'trecho' (none for a flying lap). */
  kinds: string[];
  best: boolean;
  compare: boolean;
}
const isPiece = (r: Row) => r.kinds.length > 0;

/** The page fits the phone: no sideways scroll. */
async function fits(page: Page, screen: string) {
  expect
    .soft(await page.evaluate(() => document.documentElement.scrollWidth), `${screen}: page width`)
    .toBeLessThanOrEqual(PHONE);
}

/** Rows of a table: `name` is the cell naming the lap (its badges left out), `time` the one with `.lap-time`. */
function readRows(page: Page, rows: string, nameCells: string): Promise<Row[]> {
  return page.locator(rows).evaluateAll(
    (els, nameCells) =>
      els.map((row) => {
        const badges = [...row.querySelectorAll('.badge')]
          .map((b) => b.textContent!.trim())
          .filter((b) => ['saída', 'entrada', 'trecho'].includes(b));
        const name = [...row.querySelectorAll(nameCells)]
          .map((cell) =>
            [...cell.childNodes]
              .filter((n) => n.nodeType === Node.TEXT_NODE || (n as Element).tagName === 'BUTTON')
              .map((n) => n.textContent!.trim()),
          )
          .flat()
          .join('');
        return {
          name,
          time: row.querySelector('.lap-time')?.textContent?.trim() ?? '',
          kinds: badges,
          best: row.classList.contains('lap-best'),
          compare: Boolean(row.querySelector('a.compare-link')),
        };
      }),
    nameCells,
  );
}

/** The laps screen: its summary's best lap and its rows (heat and number as 'A3'). */
async function lapsScreen(page: Page, query: string) {
  await page.goto(`/laps?${query}`);
  await expect(page.getByTestId('lap-row').first()).toBeVisible();
  // The GPS times come with the track analysis, after the table.
  await expect(page.getByTestId('ideal-lap')).not.toHaveText('…');
  // The GPS times and the rider's record ("Comparar com meu recorde") complete the table after it is drawn.
  await expect(page.getByRole('region', { name: 'Tabela de voltas' })).toHaveAttribute('aria-busy', 'false', {
    timeout: 20_000,
  });
  await fits(page, 'laps screen');
  const rows = (await readRows(page, '[data-testid=lap-row]', 'td:nth-child(2), td:nth-child(1)')).map((r) => ({
    ...r,
    name: r.name.replace(/^(\d+)(\D)$/, '$2$1'),
  }));
  return { summary: (await page.locator('.summary-best dd').innerText()).trim(), rows };
}

/** Analytics: its lap table, the 'Onde você perde tempo' pickers and the lap-time chart's points. */
async function analytics(page: Page, query: string) {
  await page.goto(`/analytics?${query}`);
  // The two selects of 'Onde você perde tempo' (each named by its label and its chosen lap).
  const studied = page.locator('.lap-choice label', { hasText: 'Volta estudada' }).locator('select');
  await scrollToSection(page, 'Onde você perde tempo');
  await expect(studied).toBeVisible({ timeout: 30_000 });
  // The lap table is drawn as the rider scrolls towards it.
  await expect(async () => {
    await page.getByRole('region', { name: 'Voltas da sessão' }).scrollIntoViewIfNeeded();
    await expect(page.getByTestId('figures-row').first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // The rider's record (its mark, "Comparar com meu recorde") comes after the table.
  await expect(page.getByRole('region', { name: 'Voltas da sessão' })).toHaveAttribute('aria-busy', 'false', {
    timeout: 20_000,
  });
  // A full day's rows below the box's first screen are drawn as the rider scrolls in it.
  await page.getByRole('region', { name: 'Voltas da sessão' }).evaluate((box) => box.scrollTo(0, box.scrollHeight));
  await expect(page.locator('.figures-table tbody[aria-busy="true"]')).toHaveCount(0);
  const rows = await readRows(page, '[data-testid=figures-row]', 'td:nth-child(2)');
  const pickers = {
    studied: (await studied.locator('option').allTextContents()).map((s) => s.trim()),
    reference: (
      await page.locator('.lap-choice label', { hasText: 'Comparar com' }).locator('select option').allTextContents()
    ).map((s) => s.trim()),
  };
  // Drawn as the rider scrolls down to it, below the lap table.
  const chart = page.getByTestId('chart-progression');
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(chart).toBeAttached({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-ready', 'true');
  const points = Number(await chart.getAttribute('data-points'));
  await fits(page, 'analytics');
  const lean = {
    left: (await page.getByTestId('lean-left').locator('xpath=..').innerText()).replace(/\s+/g, ' ').trim(),
    chart: await page.getByTestId('chart-lean').count(),
    mapColours: await page.getByRole('group', { name: 'Cor do mapa' }).count(),
  };
  return { rows, pickers, points, lean };
}

/** 'Compartilhar' on the laps screen: a link to the whole session, opened signed out. */
async function sharedLink(page: Page, browser: Browser, query: string) {
  await page.goto(`/laps?${query}`);
  await page.getByRole('button', { name: 'Compartilhar' }).click();
  await page.getByRole('button', { name: 'Criar link' }).click();
  const url = await page.getByTestId('share-url').inputValue();
  const stranger = await browser.newContext();
  try {
    expect(await stranger.cookies()).toEqual([]);
    const shared = await stranger.newPage();
    await shared.goto(new URL(url).pathname);
    await expect(shared.getByTestId('shared-view')).toBeVisible();
    await expect(shared.getByTestId('shared-laps').locator('tbody tr').first()).toBeVisible();
    await fits(shared, 'shared link');
    return {
      best: (await shared.getByTestId('shared-best').innerText()).trim(),
      rows: await readRows(shared, '[data-testid=shared-laps] tbody tr', 'td:nth-child(1)'),
    };
  } finally {
    await stranger.close();
  }
}

/** 'Minhas sessões': the session's best lap there. */
async function mySessions(page: Page, track: string, date: string) {
  await page.goto('/sessoes');
  const row = page.getByTestId('my-session').filter({ has: page.getByRole('heading', { name: `${track}, ${date}` }) });
  await expect(row).toHaveCount(1);
  await fits(page, 'Minhas sessões');
  const best = row
    .locator('.my-session-figures > div')
    .filter({ has: page.locator('dt', { hasText: /^Melhor volta$/ }) })
    .locator('dd');
  return (await best.innerText()).match(TIME)?.[0] ?? (await best.innerText()).trim();
}

/** What every screen says of the session's best lap, and of its flying laps. */
function expectOneBest(
  best: string,
  screens: { laps: Row[]; summary: string; analytics: Row[]; studied: string[]; shared: Row[]; sharedBest: string },
) {
  expect.soft(screens.summary, 'laps screen: Melhor volta').toBe(best);
  for (const [screen, rows] of [
    ['laps screen', screens.laps],
    ['analytics lap table', screens.analytics],
    ['shared link', screens.shared],
  ] as const) {
    expect
      .soft(
        rows.filter((r) => r.best).map((r) => r.time),
        `${screen}: the one best lap`,
      )
      .toEqual([best]);
  }
  expect.soft(screens.sharedBest, 'shared link: Melhor volta').toBe(best);
  expect
    .soft(
      screens.studied.filter((o) => o.endsWith('(melhor)')),
      "'Onde você perde tempo': the best of the pickers",
    )
    .toEqual([expect.stringContaining(`· ${best} (melhor)`)]);
  // The pickers offer the flying laps, each with the time the lap table shows it with.
  const flying = screens.analytics.filter((r) => !isPiece(r) && TIME.test(r.time)).map((r) => `${r.name} · ${r.time}`);
  expect
    .soft(
      screens.studied.map((o) => o.replace(/ \(melhor\)$/, '')),
      "'Onde você perde tempo': its laps are the lap table's flying laps",
    )
    .toEqual(flying);
}

/**
 * The recording imported through the app's own page (its file picker) by a new rider, so that it
 * is a session of its own (two files of one day at one track would be one session); the session's
 * query for /laps and /analytics.
 */
async function importAsNewRider(page: Page, r: Recording): Promise<string> {
  await signIn(page, { email: uniqueEmail('verdade') });
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Importar sessões' }).click();
  await page.getByTestId('import-input').setInputFiles(r.file);
  const item = page.getByTestId('import-item');
  await expect(item).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(item).toContainText(`${r.track} · ${r.date}`);
  await expect(item.locator('.import-best')).toHaveText(`Melhor volta: ${r.best}`);
  await fits(page, 'Importar sessões');
  return (await item.getByRole('link', { name: 'Ver voltas' }).getAttribute('href'))!.split('?')[1]!;
}

for (const r of recordings) {
  // The screens are read once; each claim about them is a step of its own.
  test(`${r.name}: every screen shows ${r.best} as the best lap and no piece as a lap, and fits ${PHONE} px`, async ({
    page,
    browser,
  }) => {
    const query = await importAsNewRider(page, r);
    const laps = await lapsScreen(page, query);
    const a = await analytics(page, query);
    const shared = await sharedLink(page, browser, query);
    const screens = [
      ['laps screen', laps.rows],
      ['analytics lap table', a.rows],
      ['shared link', shared.rows],
    ] as const;

    await test.step(`one best lap, ${r.best}, on every screen`, async () => {
      expectOneBest(r.best, {
        laps: laps.rows,
        summary: laps.summary,
        analytics: a.rows,
        studied: a.pickers.studied,
        shared: shared.rows,
        sharedBest: shared.best,
      });
      expect
        .soft(
          a.pickers.reference.filter((o) => o.endsWith('(melhor)')),
          "'Comparar com': the best",
        )
        .toEqual(a.pickers.studied.filter((o) => o.endsWith('(melhor)')));
      // A lap's time is shown on one row only: a stretch outside any lap is not the lap of the same name.
      const timed = a.rows.filter((x) => TIME.test(x.time)).map((x) => x.name);
      expect.soft(timed, 'analytics lap table: each lap once').toEqual([...new Set(timed)]);
      expect.soft(await mySessions(page, r.track, r.date), "'Minhas sessões': Melhor volta").toBe(r.best);
    });

    await test.step("'Evolução': the one day with its best lap; no consistency chart for a lap or two", async () => {
      await page.goto('/progresso');
      // Below its charts, drawn after them: a busy machine takes seconds (a chart of one day's point
      // once took tens of seconds, uplot-chart.tsx).
      await expect(page.getByTestId('progress-table').locator('tbody tr')).toHaveCount(1, { timeout: 15_000 });
      await expect(page.getByTestId('progress-record')).toContainText(r.best);
      await expect(page.getByTestId('progress-chart')).toBeVisible();
      await expect(page.getByTestId('progress-spread')).toHaveCount(0);
      await fits(page, 'Evolução');
    });

    await test.step('no piece is offered as a lap: no "Comparar com meu recorde", no best, no point on the lap-time chart', () => {
      for (const [screen, rows] of screens) {
        for (const row of rows.filter(isPiece)) {
          expect
            .soft(row.compare, `${screen}: ${row.name} (${row.kinds.join()}) has no "Comparar com meu recorde"`)
            .toBe(false);
          expect.soft(row.best, `${screen}: ${row.name} (${row.kinds.join()}) is not the best`).toBe(false);
        }
      }
      expect
        .soft(a.points, 'the lap-time chart: a point per flying lap')
        .toBe(a.rows.filter((x) => !isPiece(x) && TIME.test(x.time)).length);
    });

    await test.step(r.lean ? 'its lean, as the file gives it' : 'no lean in the file: unknown, never 0°', () => {
      if (r.lean) {
        expect.soft(a.lean.left, 'Inclinação máx. esquerda').toMatch(/\d+° E volta A\d/);
        expect.soft(a.lean.chart, 'the lean chart').toBe(1);
        expect.soft(a.lean.mapColours, 'the map coloured by speed or lean').toBe(1);
      } else {
        expect.soft(a.lean.left, 'Inclinação máx. esquerda').toBe('Inclinação máx. esquerda — não registrada');
        expect.soft(a.lean.chart, 'no lean chart').toBe(0);
        expect.soft(a.lean.mapColours, 'no lean to colour the map by').toBe(0);
      }
    });

    await test.step('no piece is shown with a lap time', () => {
      for (const [screen, rows] of screens)
        for (const row of rows.filter(isPiece))
          expect.soft(row.time, `${screen}: ${row.name} (${row.kinds.join()}) has no lap time`).toBe('—');
    });
  });
}

test.describe('a demo device session', () => {
  const query = 'hw=000000000042&pista=Interlagos&data=15112026';

  test('the laps screen, a share link and analytics show the device’s own best lap; its out- and in-laps keep the device’s time', async ({
    page,
    browser,
  }) => {
    await signIn(page, { email: 'piloto@voltas.local' });
    const laps = await lapsScreen(page, query);
    const best = laps.rows.find((x) => x.best)!.time;
    const a = await analytics(page, query);
    const shared = await sharedLink(page, browser, query);
    expectOneBest(best, {
      laps: laps.rows,
      summary: laps.summary,
      analytics: a.rows,
      studied: a.pickers.studied,
      shared: shared.rows,
      sharedBest: shared.best,
    });
    // Every lap has the device's time on every screen (the GPS time is only the check beside it).
    const byName = (rows: Row[]) => Object.fromEntries(rows.map((x) => [x.name, x.time]));
    expect.soft(byName(a.rows), 'analytics lap table: the device’s times').toEqual(byName(laps.rows));
    expect.soft(byName(shared.rows), 'shared link: the device’s times').toEqual(byName(laps.rows));
    for (const [screen, rows] of [
      ['laps screen', laps.rows],
      ['analytics lap table', a.rows],
    ] as const) {
      for (const row of rows.filter(isPiece))
        expect
          .soft(row.compare, `${screen}: ${row.name} (${row.kinds.join()}) has no "Comparar com meu recorde"`)
          .toBe(false);
      expect
        .soft(
          rows.filter((x) => !isPiece(x) && !x.best && !x.compare),
          `${screen}: every other flying lap compares with the record`,
        )
        .toEqual([]);
    }
    expect
      .soft(a.points, 'the lap-time chart: a point per flying lap')
      .toBe(laps.rows.filter((x) => !isPiece(x)).length);
  });
});

/** WCAG's contrast ratio of an element's text against the first background behind it that is not transparent. */
function contrast(el: Element): number {
  const rgb = (c: string) => c.match(/[\d.]+/g)!.map(Number);
  const luminance = ([r, g, b]: number[]) => {
    const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  };
  let bg: Element | null = el;
  while (bg && (rgb(getComputedStyle(bg).backgroundColor)[3] ?? 1) === 0) bg = bg.parentElement;
  const [a, b] = [
    luminance(rgb(getComputedStyle(el).color)),
    luminance(rgb(getComputedStyle(bg ?? document.documentElement).backgroundColor)),
  ];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

for (const colorScheme of ['dark', 'light'] as const) {
  test(`where the device's time and Voltas's GPS time differ, the laps screen says so and why, readable on a ${PHONE} px phone (${colorScheme}) and by a screen reader`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await signIn(page, { email: 'piloto@voltas.local' });
    await page.goto('/laps?hw=000000000042&pista=Interlagos&data=15112026');
    // The demo's in-lap B8: the device's 02:41.412, the GPS's 02:41.311.
    const differs = page.locator('.gps-differs');
    await expect(differs).toHaveCount(1);
    const row = page.getByTestId('lap-row').filter({ has: differs });
    await expect(row.locator('.lap-time')).toHaveText('02:41.412');
    await expect(differs).toHaveText(
      /^GPS 02:41\.311 ≠ difere do hardware em −0,101 s\s*Vale o tempo do hardware, marcado na linha dele; o GPS do Voltas é a conferência\.$/,
    );
    // A screen reader reads the words, not the sign, in the lap's row.
    expect(await row.ariaSnapshot()).toContain('GPS 02:41.311 difere do hardware em −0,101 s Vale o tempo do hardware');
    // Reached from the keyboard: Tab comes to the table (a focusable region)...
    const table = page.getByRole('region', { name: 'Tabela de voltas' });
    let reached = false;
    for (let k = 0; k < 40 && !reached; k++) {
      await page.keyboard.press('Tab');
      reached = await table.evaluate((el) => el === document.activeElement);
    }
    expect(reached, 'Tab reaches the laps table').toBe(true);
    // ...and fits the phone: nothing of the line is off to the side.
    await differs.scrollIntoViewIfNeeded();
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const [box, region] = [(await differs.boundingBox())!, (await table.boundingBox())!];
    expect(box.x).toBeGreaterThanOrEqual(region.x);
    expect(box.x + box.width).toBeLessThanOrEqual(region.x + region.width);
    await fits(page, 'laps screen');
    // Its text, and the reason under it, read against the row behind them (WCAG AA for small text).
    expect(await differs.evaluate(contrast)).toBeGreaterThanOrEqual(4.5);
    expect(await differs.locator('small').evaluate(contrast)).toBeGreaterThanOrEqual(4.5);
  });
}
