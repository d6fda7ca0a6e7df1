// A form's dropdown of a list that grows (users, devices): typing above it narrows its options.
import { useEffect, useState } from 'react';
import { useT } from '#web/i18n/messages.ts';
import type { Option } from './select-field';

/**
 * A labelled dropdown with a search box under its label that keeps only the options whose text
 * holds what was typed (the chosen one stays, so the choice never changes by itself); typing down
 * to one option chooses it.
 */
export function FilteredSelect(props: {
  id: string;
  label: string;
  value: string;
  options: readonly Option[];
  none: Option;
  onChange: (value: string) => void;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const matches = (typed: string) => {
    const wanted = typed.trim().toLocaleLowerCase();
    return props.options.filter((o) => !wanted || o.label.toLocaleLowerCase().includes(wanted));
  };
  const found = matches(text);
  const shown = props.options.filter((o) => o.value === props.value || found.includes(o));
  // The list may arrive after the typing (a slow page load): one match left then is chosen too.
  const only = text.trim() && found.length === 1 ? found[0]!.value : null;
  const { value, onChange } = props;
  useEffect(() => {
    if (only !== null && value === '') onChange(only);
  }, [only, value, onChange]);
  return (
    <div className="field filtered-select">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        type="search"
        aria-label={t('admin.filterList')}
        placeholder={t('admin.filterList')}
        aria-controls={props.id}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const left = matches(e.target.value);
          if (e.target.value.trim() && left.length === 1) onChange(left[0]!.value);
        }}
      />
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {[props.none, ...shown].map((o) => (
          <option key={o.value} value={o.value} lang={o.lang}>
            {o.label}
          </option>
        ))}
      </select>
      {text.trim() && found.length === 0 && (
        <p className="muted" role="status">
          {t('admin.filterNone', { text: text.trim() })}
        </p>
      )}
    </div>
  );
}
