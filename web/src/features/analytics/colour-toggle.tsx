// What the track map is coloured by: speed or lean (a file without lean offers no choice).
import { useT } from '#web/i18n/messages.ts';
import type { MapColour } from './track-map-drawing';

export function ColourToggle(props: { colour: MapColour; onChange: (colour: MapColour) => void }) {
  const t = useT();
  return (
    <fieldset className="colour-toggle">
      <legend>{t('analytics.colour')}</legend>
      <label>
        <input type="radio" name="cor" checked={props.colour === 'speed'} onChange={() => props.onChange('speed')} />{' '}
        {t('analytics.colourSpeed')}
      </label>
      <label>
        <input type="radio" name="cor" checked={props.colour === 'lean'} onChange={() => props.onChange('lean')} />{' '}
        {t('analytics.colourLean')}
      </label>
    </fieldset>
  );
}
