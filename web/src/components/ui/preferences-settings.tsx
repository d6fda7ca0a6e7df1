import { useId } from 'react';
import { LANGUAGES, type Language } from '#core/preferences.ts';
import { UNITS, type Units } from '#core/units.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { usePreferences, useSetPreferences } from '#web/lib/preferences.ts';
import { SelectField } from './select-field';

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
      <SelectField
        id={`${id}-language`}
        label={t('preferences.language')}
        value={language}
        onChange={(v) => save.mutate({ language: v as Language, units })}
        options={LANGUAGES.map((l) => ({ value: l, label: t(`preferences.languageNames.${l}`), lang: l }))}
      />
      <SelectField
        id={`${id}-units`}
        label={t('preferences.units')}
        value={units}
        onChange={(v) => save.mutate({ language, units: v as Units })}
        options={UNITS.map((u) => ({ value: u, label: t(`preferences.unitNames.${u}`) }))}
      />
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
