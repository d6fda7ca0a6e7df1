import { useId } from 'react';
import { LANGUAGES, type Language } from '#core/preferences.ts';
import { UNITS, type Units } from '#core/units.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { usePreferences, useSetPreferences } from '#web/lib/preferences.ts';

/** The menu's "Idioma e unidades": the rider's language and units, kept in their profile (issue 38). */
export function PreferencesSettings() {
  const t = useT();
  const id = useId();
  const preferences = usePreferences();
  const save = useSetPreferences();
  // Signed out, or not read yet: nothing to change here (the page follows the browser).
  if (!preferences.data) return null;
  const { language, units } = preferences.data;
  return (
    <fieldset className="menu-settings" data-testid="preferences">
      <legend>{t('preferences.title')}</legend>
      <div className="field">
        <label htmlFor={`${id}-language`}>{t('preferences.language')}</label>
        <select
          id={`${id}-language`}
          value={language}
          onChange={(e) => save.mutate({ language: e.target.value as Language, units })}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {t(`preferences.languageNames.${l}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-units`}>{t('preferences.units')}</label>
        <select
          id={`${id}-units`}
          value={units}
          onChange={(e) => save.mutate({ language, units: e.target.value as Units })}
        >
          {UNITS.map((u) => (
            <option key={u} value={u}>
              {t(`preferences.unitNames.${u}`)}
            </option>
          ))}
        </select>
      </div>
      <p className="muted" role="status">
        {save.isPending ? t('preferences.saving') : save.isSuccess ? t('preferences.saved') : ''}
      </p>
      {save.isError && (
        <p className="field-error" role="alert">
          {t('preferences.notSaved', { reason: errorMessage(t, save.error) })}
        </p>
      )}
    </fieldset>
  );
}
