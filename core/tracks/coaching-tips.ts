// At most three things to work on, in the rider's language and units (the corner study, issue 62).
import type { Language } from '../preferences';
import type { Translate } from '../i18n/intl';
import { distanceIn, speedIn, UNIT_OF, type Units } from '../units';
import { round } from './corner-accuracy';
import type { CoachingStudy } from './lap-coaching';

/** At most this many tips a session: a rider works on three things, not ten. */
const MAX_TIPS = 3;

export interface CoachingTip {
  corner: string;
  gainS: number;
  text: string;
}

/** What a tip names the reference by, in the rider's words. */
export type ReferenceName = { kind: 'ideal' } | { kind: 'record' } | { kind: 'best' } | { kind: 'lap'; lap: string };

/**
 * At most three things to work on, the corners losing most first, each a sentence in the rider's
 * language and units citing only differences outside the trace's accuracy.
 */
export function coachingTips(
  study: CoachingStudy,
  t: Translate,
  language: Language,
  units: Units,
  referenceName: ReferenceName,
): CoachingTip[] {
  const minGain = Math.max(0.05, 2 * study.timeAccuracyS);
  const distance = (m: number) =>
    numberFormat(language, { style: 'unit', unit: UNIT_OF.distance[units], maximumFractionDigits: 0 }).format(
      distanceIn(Math.abs(m), units),
    );
  const speed = (kmh: number) =>
    numberFormat(language, { style: 'unit', unit: UNIT_OF.speed[units], maximumFractionDigits: 0 }).format(
      speedIn(Math.abs(kmh), units),
    );
  const seconds = (s: number) =>
    numberFormat(language, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(Math.abs(s));
  const ref =
    referenceName.kind === 'lap'
      ? t('coach.refLap', { lap: referenceName.lap })
      : referenceName.kind === 'ideal'
        ? t('coach.refIdeal')
        : referenceName.kind === 'record'
          ? t('coach.refRecord')
          : t('coach.refBest');
  const list = listFormat(language);
  return study.corners
    .filter((c) => c.timeLostS !== null && c.timeLostS >= minGain)
    .sort((a, b) => b.timeLostS! - a.timeLostS!)
    .slice(0, MAX_TIPS)
    .map((c) => {
      const said: string[] = [];
      const v = c.verdicts;
      if (v.brake === 'earlier') said.push(t('coach.brakeEarlier', { distance: distance(c.brakeDeltaM!), ref }));
      if (v.brake === 'later') said.push(t('coach.brakeLater', { distance: distance(c.brakeDeltaM!), ref }));
      if (v.minSpeed === 'slower') said.push(t('coach.minSlower', { speed: speed(c.minKmhDelta!) }));
      if (v.apex === 'early' && v.minSpeed !== 'same')
        said.push(t('coach.apexEarly', { distance: distance(c.minAtDeltaM!) }));
      if (v.apex === 'late') said.push(t('coach.apexLate', { distance: distance(c.minAtDeltaM!) }));
      if (v.throttle === 'later')
        said.push(
          t('coach.throttleLater', { seconds: seconds(c.throttleAtDeltaS!), distance: distance(c.throttleAtDeltaM!) }),
        );
      if (c.coastDeltaS !== null && c.coastDeltaS >= 0.2 && v.throttle !== 'later')
        said.push(t('coach.coastLonger', { seconds: seconds(c.coastDeltaS) }));
      if (v.exitSpeed === 'slower' && said.length < 2)
        said.push(t('coach.exitSlower', { speed: speed(c.exitKmhDelta!) }));
      const actions = said.length ? list.format(said.slice(0, 3)) : t('coach.slowerThrough', { ref });
      return {
        corner: c.name,
        gainS: round(c.timeLostS!, 2),
        text: t('coach.tip', { corner: c.name, actions, seconds: seconds(c.timeLostS!) }),
      };
    });
}

/** Intl's formatters are slow to make: one per language and options, kept. */
const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${language}${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(language, options)));
  return f;
}
const lists = new Map<Language, Intl.ListFormat>();
function listFormat(language: Language): Intl.ListFormat {
  let f = lists.get(language);
  if (!f) lists.set(language, (f = new Intl.ListFormat(language, { type: 'conjunction' })));
  return f;
}
