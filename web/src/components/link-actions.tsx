// A link's two actions, wherever one is shown: the phone's share sheet (where the browser has one)
// and copy to the clipboard.
import { useT } from '#web/i18n/messages.ts';
import { useCopy } from '#web/lib/clipboard.ts';

/** Whether this browser opens the system's share sheet (phones, some desktops). */
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

export function LinkActions(props: { url: string; title: string; primary?: boolean }) {
  const t = useT();
  const { copied, copy } = useCopy();
  const share = () =>
    // A rider closing the sheet rejects the promise: nothing to say about it.
    navigator.share({ title: props.title, url: props.url }).catch(() => undefined);
  return (
    <>
      {canShare() && (
        <button type="button" className={props.primary ? 'btn btn-primary' : 'btn btn-secondary'} onClick={share}>
          {t('history.shareSend')}
        </button>
      )}
      <button
        type="button"
        className={props.primary && !canShare() ? 'btn btn-primary' : 'btn btn-secondary'}
        onClick={() => copy(props.url)}
      >
        {t('history.shareCopy')}
      </button>
      {copied && <span role="status">{t('history.shareCopied')}</span>}
    </>
  );
}
