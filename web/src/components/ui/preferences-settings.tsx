import { useId } from 'react';
import { LANGUAGES, type Language } from '#core/preferences.ts';
import { UNITS, type Units } from '#core/units.ts';
import { errorMessage, fill, t } from '#web/i18n/messages.ts';
import { usePreferences, useSetPreferences } from '#web/lib/preferences.ts';

/** The menu's "Idioma e unidades": the rider's language and units, kept in their profile (issue 38). */
export function PreferencesSettings() {
  const id = useId();
  const preferences = usePreferences();
  const save = useSetPreferences();
  // Signed out, or not read yet: nothing to change here (the page follows the browser).
  if (!preferences.data) return null;
  const p = t.preferences;
  const { language, units } = preferences.data;
  return (
    <fieldset className="menu-settings" data-testid="preferences">
      <legend>{p.title}</legend>
      <div className="field">
        <label htmlFor={`${id}-language`}>{p.language}</label>
        <select
          id={`${id}-language`}
          value={language}
          onChange={(e) => save.mutate({ language: e.target.value as Language, units })}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l} lang={l}>
              {p.languageNames[l]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-units`}>{p.units}</label>
        <select
          id={`${id}-units`}
          value={units}
          onChange={(e) => save.mutate({ language, units: e.target.value as Units })}
        >
          {UNITS.map((u) => (
            <option key={u} value={u}>
              {p.unitNames[u]}
            </option>
          ))}
        </select>
      </div>
      <p className="muted" role="status">
        {save.isPending ? p.saving : save.isSuccess ? p.saved : ''}
      </p>
      {save.isError && (
        <p className="field-error" role="alert">
          {fill(p.notSaved, { reason: errorMessage(save.error) })}
        </p>
      )}
    </fieldset>
  );
}
