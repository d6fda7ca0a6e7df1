import { useId, useState, type FormEvent } from 'react';
import { useT } from '#web/i18n/messages.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';

export interface Option {
  value: string;
  label: string;
}

/**
 * The spec's assignment: two dropdowns and 'Cadastrar'. Nothing happens unless both are chosen;
 * on success the button reads 'Cadastrado!' while the page data reloads; a failure shows a
 * Portuguese message next to the form.
 */
export function AssignForm(props: {
  first: { label: string; options: Option[] };
  second: { label: string; options: Option[] };
  onAssign: (first: string, second: string) => Promise<unknown>;
}) {
  const t = useT();
  const id = useId();
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [state, setState] = useState<'idle' | 'saving' | 'done'>('idle');
  const [error, setError] = useState<unknown>(null);
  const [hint, setHint] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (!first || !second) {
      setHint(true);
      return;
    }
    setHint(false);
    setError(null);
    setState('saving');
    try {
      await props.onAssign(first, second);
      setState('done');
      setFirst('');
      setSecond('');
      window.setTimeout(() => setState('idle'), 2000);
    } catch (err) {
      setError(err);
      setState('idle');
    }
  };

  return (
    <form className="assign-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <div className="field">
        <label htmlFor={`${id}-a`}>{props.first.label}</label>
        <select id={`${id}-a`} value={first} onChange={(e) => setFirst(e.target.value)}>
          <option value="">—</option>
          {props.first.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-b`}>{props.second.label}</label>
        <select id={`${id}-b`} value={second} onChange={(e) => setSecond(e.target.value)}>
          <option value="">—</option>
          {props.second.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" disabled={state === 'saving'} aria-busy={state === 'saving'}>
        {state === 'done' ? t('admin.cadastrado') : state === 'saving' ? t('admin.cadastrando') : t('admin.cadastrar')}
      </button>
      {hint && (
        <p className="field-error" role="alert">
          {t('admin.chooseBoth')}
        </p>
      )}
      <ErrorAlert error={error} />
      <p className="visually-hidden" role="status">
        {state === 'done' ? t('admin.cadastrado') : ''}
      </p>
    </form>
  );
}
