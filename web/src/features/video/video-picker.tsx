import { useEffect, useRef, useState } from 'react';
import { useT } from '#web/i18n/messages.ts';

/**
 * Picks the rider's video: a button that opens the file chooser (keyboard and touch), or a file
 * dropped anywhere on the page while this is shown. The file is only read here, never sent.
 */
export function VideoPicker(props: {
  onPick: (files: File[]) => void;
  again: boolean;
  testId?: string;
  dropOnPage?: boolean;
}) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const onPick = useRef(props.onPick);
  onPick.current = props.onPick;
  const dropOnPage = props.dropOnPage ?? true;

  useEffect(() => {
    if (!dropOnPage) return;
    const hasFiles = (e: DragEvent) => Boolean(e.dataTransfer?.types.includes('Files'));
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      setDragging(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length) onPick.current(files);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [dropOnPage]);

  return (
    <div className="video-pick">
      <button
        type="button"
        className={props.again ? 'btn btn-secondary btn-small' : 'btn btn-primary'}
        onClick={() => input.current?.click()}
      >
        {props.again ? t('video.pickAnother') : t('video.pick')}
      </button>
      <input
        ref={input}
        type="file"
        accept="video/*"
        multiple
        hidden
        data-testid={props.testId ?? 'video-file'}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          if (files.length) props.onPick(files);
        }}
      />
      {!props.again && dropOnPage && <span className="muted">{t('video.pickHint')}</span>}
      {dragging && (
        <div className="video-drop" aria-hidden="true">
          {t('video.dropHere')}
        </div>
      )}
    </div>
  );
}

/** While a picked file is read, a progress line; a file that cannot be used, its reason. */
export function VideoReadState(props: { reading: boolean; problem: string | null | undefined }) {
  const t = useT();
  return (
    <>
      {props.reading && (
        <p className="loading-inline" role="status">
          <progress aria-label={t('video.reading')} /> {t('video.reading')}
        </p>
      )}
      {props.problem && (
        <p className="alert alert-error" role="alert">
          {props.problem}
        </p>
      )}
    </>
  );
}
