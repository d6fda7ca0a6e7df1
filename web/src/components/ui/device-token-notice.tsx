import { useState } from 'react';
import { fill, t } from '#web/i18n/messages.ts';

/** Shows a device's upload token the one time it exists in clear (`message` says why it is new). */
export function DeviceTokenNotice({
  id,
  token,
  message = t.admin.tokenOnce,
}: {
  id: string;
  token: string;
  message?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice notice-token" role="status">
      <p>{fill(message, { id })}</p>
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
        {copied ? t.admin.copied : t.admin.copy}
      </button>
    </div>
  );
}
