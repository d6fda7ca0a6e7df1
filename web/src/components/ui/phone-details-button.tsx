import type { ReactNode } from 'react';

/** On a phone, the button that opens a table row's other columns below it (hidden on a wide screen, which shows them). */
export function PhoneDetailsButton(props: {
  open: boolean;
  controls: string;
  onToggle: () => void;
  children: ReactNode;
}) {
  // The space keeps its label from running into the cell's text before it ("01:39.783Detalhes").
  return (
    <>
      {' '}
      <button
        type="button"
        className="btn btn-secondary btn-small phone-only"
        aria-expanded={props.open}
        aria-controls={props.controls}
        onClick={props.onToggle}
      >
        {props.children}
      </button>
    </>
  );
}
