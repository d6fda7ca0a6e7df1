// A labelled field of the firmware page's forms, with its error under it.
import type { ReactNode } from 'react';

export function Field(props: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.error && (
        <p id={`${props.id}-error`} className="field-error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
