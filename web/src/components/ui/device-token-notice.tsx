import { useState } from 'react';
import { useT } from '#web/i18n/messages.ts';

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
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice notice-token" role="status">
      <p>{t(message, { id })}</p>
      <code className="token" data-testid="device-token">
        {token}
      </code>
      <button
        type="button"
        className="btn btn-secondary btn-small"
        onClick={() => {
          void navigator.clipboard?.writeText(token).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? t('admin.copied') : t('admin.copy')}
      </button>
    </div>
  );
}
