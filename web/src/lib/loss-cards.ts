// Where a lap loses time to another, as short cards: the biggest losses, each with its likely reason.
import type { z } from 'zod';
import type { segmentDeltaSchema } from '#core/contracts/tracks.contract.ts';
import type { Units } from '#core/units.ts';
import { formatGap } from '#web/lib/format.ts';
import { formatDistance, formatSpeed } from '#web/lib/units-format.ts';
import type { Translate } from '#web/i18n/messages.ts';

type SegmentDelta = z.infer<typeof segmentDeltaSchema>;

/** Differences smaller than these are not worth a rider's attention (GPS and speed noise). */
const BRAKE_M = 3;
const SPEED_KMH = 1;

/** The card's title: which piece of the lap and the time lost there. */
export function lossTitle(t: Translate, d: SegmentDelta): string {
  const delta = formatGap(d.deltaSeconds, 2);
  if (d.kind === 'corner') return t('tracks.cardCorner', { n: d.corner!, delta });
  const after = Number(d.segment.slice(1));
  return after === 0 ? t('tracks.cardStartStraight', { delta }) : t('tracks.cardStraight', { n: after, delta });
}

/** What differed there, in plain words: "freou 12 m antes e passou 6 km/h mais lento no ápice" (in the rider's units). */
export function lossReason(t: Translate, d: SegmentDelta, units: Units = 'metric'): string {
  const parts: string[] = [];
  // Whole units, the size of the difference (the words say which way).
  const distance = (m: number) => formatDistance(Math.abs(m), units, undefined, 0);
  const speed = (kmh: number) => formatSpeed(Math.abs(kmh), units, undefined, 0);
  if (d.kind === 'corner') {
    if (d.brakedEarlierM !== null && d.brakedEarlierM >= BRAKE_M)
      parts.push(t('preferences.brakedEarlier', { distance: distance(d.brakedEarlierM) }));
    if (d.brakedEarlierM !== null && d.brakedEarlierM <= -BRAKE_M)
      parts.push(t('preferences.brakedLater', { distance: distance(d.brakedEarlierM) }));
    if (d.apexKmh !== null && d.apexKmh <= -SPEED_KMH)
      parts.push(t('preferences.apexSlower', { speed: speed(d.apexKmh) }));
    if (d.apexKmh !== null && d.apexKmh >= SPEED_KMH)
      parts.push(t('preferences.apexFaster', { speed: speed(d.apexKmh) }));
    if (d.exitKmh !== null && d.exitKmh <= -SPEED_KMH)
      parts.push(t('preferences.exitSlower', { speed: speed(d.exitKmh) }));
  } else if (d.topKmh !== null && d.topKmh <= -SPEED_KMH) {
    parts.push(t('preferences.topSlower', { speed: speed(d.topKmh) }));
  }
  if (!parts.length) return t('tracks.slowerThrough');
  return parts.length === 1
    ? parts[0]!
    : `${parts.slice(0, -1).join(', ')} ${t('tracks.and')} ${parts[parts.length - 1]}`;
}

/** The three pieces of the lap where the most time went, largest first (only where time was lost). */
export function topLosses(segments: readonly SegmentDelta[]): SegmentDelta[] {
  return segments.filter((s) => s.deltaSeconds > 0.005).slice(0, 3);
}
