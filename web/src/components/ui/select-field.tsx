// A labelled dropdown for forms.
import type { SelectHTMLAttributes } from 'react';

export interface Option {
  value: string;
  label: string;
  lang?: string;
}

/** A form's dropdown with its label above it. */
export function SelectField({
  label,
  options,
  className,
  onChange,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange'> & {
  id: string;
  label: string;
  value: string;
  options: readonly Option[];
  onChange: (value: string) => void;
}) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={select.id}>{label}</label>
      <select {...select} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value} lang={o.lang}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
