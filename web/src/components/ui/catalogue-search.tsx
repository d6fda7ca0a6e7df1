// The circuit catalogue searched by name: a rider saying which circuit a session was on, an admin
// opening one nobody has ridden yet to draw its pit lane.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { CatalogueResponse } from '#core/contracts/tracks.contract.ts';
import { errorMessage, useT } from '#web/i18n/messages.ts';
import { useCatalogue } from '#web/lib/catalogue-api.ts';

type Circuit = CatalogueResponse['tracks'][number];

/** A name box and its search button; each circuit found is listed as what `choice` makes of it. */
export function CatalogueSearch(props: { choice: (circuit: Circuit) => ReactNode }) {
  const t = useT();
  const id = useId();
  const [query, setQuery] = useState('');
  const [asked, setAsked] = useState('');
  const found = useCatalogue(asked);
  return (
    <>
      <form
        className="inline-form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setAsked(query.trim());
        }}
      >
        <label htmlFor={id}>{t('tracks.searchLabel')}</label>
        <input
          id={id}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          minLength={2}
          maxLength={80}
        />
        <button type="submit" className="btn btn-secondary" disabled={query.trim().length < 2}>
          {t('tracks.searchButton')}
        </button>
      </form>
      {query.trim().length > 0 && query.trim().length < 2 && <p className="muted">{t('tracks.searchHint')}</p>}
      {found.isError && <p className="alert alert-error">{errorMessage(t, found.error)}</p>}
      {found.data && found.data.tracks.length === 0 && <p className="empty-state">{t('tracks.searchNone')}</p>}
      {found.data && found.data.tracks.length > 0 && (
        <ul className="catalogue-results">
          {found.data.tracks.map((c) => (
            <li key={c.id}>{props.choice(c)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
