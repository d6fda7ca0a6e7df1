// The spec's assignment form: two dropdowns and 'Cadastrar'.
import { useId, useState, type FormEvent } from 'react';
import { FilteredSelect } from './filtered-select';
import { useT } from '#web/i18n/messages.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import type { Option } from './select-field';

const NONE = { value: '', label: '—' };

/**
 * The spec's assignment: two dropdowns and 'Cadastrar'. Nothing happens unless both are chosen;
 * on success the button reads 'Cadastrado!' while the page data reloads; a failure shows a
 * Portuguese message next to the form.
 */
export function AssignForm(props: {
  first: { label: string; options: Option[] };
  second: { label: string; options: Option[] };
  onAssign: (first: string, second: string) => Promise<unknown>;
  /** A question to confirm first (e.g. the device gets a new token); null: none. */
  confirm?: (first: string, second: string) => string | null;
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
    const question = props.confirm?.(first, second);
    if (question && !window.confirm(question)) return;
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
      <FilteredSelect
        id={`${id}-a`}
        label={props.first.label}
        value={first}
        onChange={setFirst}
        options={props.first.options}
        none={NONE}
      />
      <FilteredSelect
        id={`${id}-b`}
        label={props.second.label}
        value={second}
        onChange={setSecond}
        options={props.second.options}
        none={NONE}
      />
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
