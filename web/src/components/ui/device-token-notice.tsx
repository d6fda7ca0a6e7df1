// A device's upload token, the one time it exists in clear: the token, how to put it on the device,
// and a QR code of it (with the server and the device's id) that a phone can carry to the device.
import { useMemo } from 'react';
import QRCode from 'qrcode';
import { useT } from '#web/i18n/messages.ts';
import { useCopy } from '#web/lib/clipboard.ts';

/** What the QR code holds: everything the device needs to upload, as one address. */
function deviceSetupUri(server: string, id: string, token: string): string {
  return `voltas://device?${new URLSearchParams({ server, id, token }).toString()}`;
}

/** The QR code's dark modules as one SVG path (drawn by React: no markup from a string, no data: address). */
function qrPath(text: string): { size: number; d: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  let d = '';
  for (let y = 0; y < modules.size; y++)
    for (let x = 0; x < modules.size; x++) if (modules.get(x, y)) d += `M${x} ${y}h1v1h-1z`;
  return { size: modules.size, d };
}

const STEPS = ['admin.tokenStep1', 'admin.tokenStep2', 'admin.tokenStep3'] as const;

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
  const server = window.location.origin;
  const qr = useMemo(() => qrPath(deviceSetupUri(server, id, token)), [server, id, token]);
  // A quiet zone of 4 modules around the code, as readers expect.
  const box = qr.size + 8;
  return (
    <div className="notice notice-token" role="status">
      <p>{t(message, { id })}</p>
      <code className="token" data-testid="device-token">
        {token}
      </code>
      <button type="button" className="btn btn-secondary btn-small" onClick={() => copy(token)}>
        {copied ? t('admin.copied') : t('admin.copy')}
      </button>
      <div className="token-setup">
        <svg
          className="token-qr"
          viewBox={`-4 -4 ${box} ${box}`}
          role="img"
          aria-label={t('admin.tokenQr', { id })}
          data-testid="device-token-qr"
          shapeRendering="crispEdges"
        >
          <rect x={-4} y={-4} width={box} height={box} fill="#fff" />
          <path d={qr.d} fill="#000" />
        </svg>
        <div>
          <h3>{t('admin.tokenStepsTitle')}</h3>
          <ol className="token-steps">
            {STEPS.map((step) => (
              <li key={step}>{t(step, { server, id })}</li>
            ))}
          </ol>
        </div>
      </div>
    </div>
  );
}
