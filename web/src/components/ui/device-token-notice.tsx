import { useT } from '#web/i18n/messages.ts';
import { useCopy } from '#web/lib/clipboard.ts';

/** Shows a device's upload token the one time it exists in clear (`message` says why it is new). */
export function DeviceTokenNotice({
  id,
  token,
  message = 'admin.tokenOnce',
}: {
  id: string;
  token: string;
  message?: 'admin.tokenOnce' | 'admin.newOwnerToken';
}) {
  const t = useT();
  const { copied, copy } = useCopy();
  return (
    <div className="notice notice-token" role="status">
      <p>{t(message, { id })}</p>
      <code className="token" data-testid="device-token">
        {token}
      </code>
      <button type="button" className="btn btn-secondary btn-small" onClick={() => copy(token)}>
        {copied ? t('admin.copied') : t('admin.copy')}
      </button>
    </div>
  );
}
