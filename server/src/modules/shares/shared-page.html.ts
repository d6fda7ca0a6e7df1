/**
 * A shared link's first screen, as web/src/features/shared/shared-page.tsx draws it (the same
 * classes, test ids and words): the page frame, the figures and the laps, written by the server
 * from the same view /api/shared/:token answers, in the language of who opens the link. What needs
 * the app (a lap's charts, the menu, a signed-in visitor's own laps) comes when the app starts.
 */
import type { SharedView } from '#core/contracts/shares.contract.ts';
import { formatDdmmyyyy } from '#core/formats/dates.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { intlFor, type Language } from '#core/i18n/intl.ts';
import { speedIn, UNIT_OF, type Units } from '#core/units.ts';
import { escapeHtml as h } from '#server/lib/html.ts';
import { translate } from '#server/lib/i18n.ts';

const time = (seconds: number | null) => (seconds === null ? '—' : formatLapTime(seconds * 1000));

/**
 * `view` null: the link opens nothing (revoked, expired or altered). `signedIn`: no sign-in
 * invitation. `units`: the visitor's, from their languages (the app then uses a signed-in rider's own).
 */
export function sharedPageHtml(
  language: Language,
  view: SharedView | null,
  signedIn: boolean,
  units: Units = 'metric',
): string {
  const t = translate(language);
  const title = view
    ? `${t('history.sharedTitle')}: ${view.track}, ${formatDdmmyyyy(view.date)}`
    : t('history.sharedTitle');
  const frame = (content: string) =>
    '<div class="page"><header class="page-header">' +
    '<img src="/logo.svg" alt="" width="72" height="24" class="page-logo">' +
    `<h1 class="page-title">${h(title)}</h1>` +
    `<button type="button" class="btn btn-secondary" aria-expanded="false">${h(t('menu.toggle'))}</button>` +
    `</header><main class="page-body">${content}</main></div>`;
  if (!view) return frame(`<p class="empty-state" data-testid="shared-gone">${h(t('history.sharedGone'))}</p>`);

  const item = (cls: string, term: string, value: string, testId = '') =>
    `<div class="${cls}"><dt>${h(term)}</dt><dd${testId && ` data-testid="${testId}"`}>${h(value)}</dd></div>`;
  const consistency = view.consistencyMs;
  const summary =
    '<dl class="summary">' +
    item(
      'summary-item summary-best',
      view.lap ? t('history.sharedLapChart', { lap: view.lap }) : t('history.sharedBest'),
      time(view.bestLapSeconds),
      'shared-best',
    ) +
    (view.idealLapSeconds === null
      ? ''
      : item('summary-item summary-ideal', t('history.sharedIdeal'), time(view.idealLapSeconds))) +
    (view.topSpeedKmh === null
      ? ''
      : item(
          'summary-item',
          t('analytics.topSpeed'),
          intlFor(language).formatNumber(speedIn(view.topSpeedKmh, units), {
            style: 'unit',
            unit: UNIT_OF.speed[units],
            minimumFractionDigits: 1,
            maximumFractionDigits: 1,
          }),
          'shared-top-speed',
        )) +
    (consistency === null
      ? ''
      : item(
          'summary-item',
          t('history.colConsistency'),
          t('history.consistencyValue', {
            s: intlFor(language).formatNumber(consistency / 1000, {
              minimumFractionDigits: 3,
              maximumFractionDigits: 3,
            }),
          }),
        )) +
    '</dl>' +
    (consistency === null ? '' : `<p class="muted">${h(t('history.consistencyHint'))}</p>`);

  const badge = (text: string, hint?: string) =>
    `<span class="badge"${hint ? ` title="${h(hint)}"` : ''}>${h(text)}</span>`;
  const rows = view.laps.map((l) => {
    const key = `${l.heat}${l.number}`;
    const lap = l.complete
      ? `<button type="button" class="btn btn-secondary btn-small" aria-pressed="false" aria-label="${h(t('history.sharedShowLap', { lap: key }))}">${key}</button>`
      : key;
    const badges =
      (l.best ? `<span class="badge badge-best">★ ${h(t('laps.bestMarker'))}</span>` : '') +
      (l.kind === 'out' ? badge(t('laps.outLap')) : '') +
      (l.kind === 'in' ? badge(t('laps.inLap')) : '') +
      (l.kind === 'partial' ? badge(t('tracks.partialLap'), t('tracks.partialHint')) : '');
    const sectors = view.bestSectorSeconds.map((bestS, i) => {
      const s = l.sectorSeconds[i];
      const best = s !== undefined && l.kind === 'flying' && s === bestS;
      return (
        `<td class="${best ? 'time sector-best' : 'time'}"><span class="sector-time">${time(s ?? null)}</span>` +
        (best
          ? `<span class="visually-hidden"> (${h(t('laps.bestSectorMarker'))})</span><span aria-hidden="true"> ★</span>`
          : '') +
        '</td>'
      );
    });
    return (
      `<tr class="lap-row lap-${l.kind}${l.best ? ' lap-best' : ''}"><td>${lap}</td>` +
      `<td class="time"><span class="lap-time">${time(l.seconds)}</span>${badges}</td>${sectors.join('')}</tr>`
    );
  });
  const sectorHeads = view.bestSectorSeconds
    .map((_, i) => `<th scope="col">${h(t('laps.sector', { n: i + 1 }))}</th>`)
    .join('');
  const laps =
    `<div class="table-scroll" role="region" aria-label="${h(t('laps.tableLabel'))}" tabindex="0">` +
    `<table class="laps-table" data-testid="shared-laps"><thead><tr><th scope="col">${h(t('history.compareLap'))}</th>` +
    `<th scope="col">${h(t('laps.colTempo'))}</th>${sectorHeads}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
  // A lap's link: the app starts at once and puts the lap's charts above the invitation, so the app
  // adds it after them (it would move down the screen as they arrive).
  const signIn =
    signedIn || view.lap ? '' : `<p class="notice"><a href="/login">${h(t('history.sharedSignIn'))}</a></p>`;
  return frame(
    `<section aria-label="${h(`${view.track} ${formatDdmmyyyy(view.date)}`)}" data-testid="shared-view">` +
      (view.name ? `<p class="share-name" data-testid="shared-name">${h(view.name)}</p>` : '') +
      `${summary}${laps}${signIn}</section>`,
  );
}
