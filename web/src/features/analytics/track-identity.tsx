import { useState, type FormEvent } from 'react';
// Answers read as their types (decision 002): this panel is part of the analytics page's code.
import type { TrackAnalysisResponse } from '#core/contracts/tracks.contract.ts';
import type { SessionAddress } from '#core/contracts/session-paths.ts';
import { CatalogueSearch } from '#web/components/ui/catalogue-search.tsx';
import { errorMessage, fieldMessage, useT } from '#web/i18n/messages.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useChooseCircuit, useRenameTrack } from './analytics.api';

/**
 * Which track the session was timed on, where it came from, and what the rider may do about it:
 * rename a track their session defined, or say which catalogue circuit it really was.
 */
export function TrackIdentity(props: { session: SessionAddress; track: TrackAnalysisResponse['track'] }) {
  const t = useT();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(props.track.name);
  const rename = useRenameTrack(props.track.id, () => setRenaming(false));
  const choose = useChooseCircuit(props.session);
  const nameError = rename.error instanceof ApiError ? fieldMessage(t, rename.error.fields.name) : undefined;

  return (
    <div className="track-identity">
      <p>
        <strong>{t('tracks.trackLabel', { name: props.track.name })}</strong>{' '}
        <span className="muted">· {t(`tracks.source.${props.track.source}` as const)}</span>
        {props.track.renamable && !renaming && (
          <button type="button" className="btn btn-secondary btn-small" onClick={() => setRenaming(true)}>
            {t('tracks.rename')}
          </button>
        )}
      </p>
      {renaming && (
        <form
          className="inline-form"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            rename.mutate(name);
          }}
        >
          <label htmlFor="track-name">{t('tracks.renameLabel')}</label>
          <input
            id="track-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
            aria-invalid={Boolean(nameError)}
            aria-describedby="track-name-error"
            required
          />
          <button type="submit" className="btn btn-primary" disabled={rename.isPending}>
            {t('tracks.renameSave')}
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setRenaming(false)}>
            {t('tracks.cancel')}
          </button>
          {rename.isError && (
            <p id="track-name-error" className="field-error" role="alert">
              {nameError ?? errorMessage(t, rename.error)}
            </p>
          )}
        </form>
      )}
      {rename.isSuccess && !renaming && (
        <p className="alert alert-success" role="status">
          {t('tracks.renamed')}
        </p>
      )}
      {props.track.choosable && (
        <details className="choose-track">
          <summary>{t('tracks.notThisTrack')}</summary>
          <CatalogueSearch
            choice={(c) => (
              <button
                type="button"
                className="btn btn-secondary"
                disabled={choose.isPending}
                onClick={() => choose.mutate(c.id)}
              >
                {t('tracks.choose', { name: c.name })}
              </button>
            )}
          />
          {choose.isError && (
            <p className="alert alert-error" role="alert">
              {errorMessage(t, choose.error)}
            </p>
          )}
          {choose.isSuccess && (
            <p className="alert alert-success" role="status">
              {t('tracks.chosen')}
            </p>
          )}
        </details>
      )}
    </div>
  );
}
