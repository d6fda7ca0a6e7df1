// The firmware images the server holds, and sending again the bytes of one whose upload was cut.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import type { Firmware } from '#core/contracts/firmware.contract.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { queryKeys } from '#web/lib/query-keys.ts';
import { useT } from '#web/i18n/messages.ts';
import { byteSize } from '#web/lib/fleet-format.ts';
import { uploadFirmwareImage, useFirmwareList } from './firmware.api';

export function Images() {
  const t = useT();
  const list = useFirmwareList();
  const columns: Column<Firmware>[] = [
    { key: 'class', label: t('fleet.colClass'), value: (f) => f.class },
    { key: 'version', label: t('firmware.colVersion'), value: (f) => f.version },
    { key: 'seq', label: t('firmware.colSeq'), value: (f) => f.seq },
    { key: 'size', label: t('firmware.colSize'), value: (f) => f.size, render: (f) => byteSize(f.size) },
    {
      key: 'image',
      label: t('firmware.colImage'),
      value: (f) => (f.imageStored ? 1 : 0),
      render: (f) =>
        f.imageStored ? (
          t('firmware.imageStored')
        ) : (
          <>
            <span className="badge badge-warn">
              <span aria-hidden="true">⚠ </span>
              {t('firmware.imageWaiting')}
            </span>
            <ResendImage firmware={f} />
          </>
        ),
    },
    {
      key: 'created',
      label: t('firmware.colCreated'),
      value: (f) => f.createdAt,
      render: (f) => <time dateTime={f.createdAt}>{new Date(f.createdAt).toLocaleString()}</time>,
    },
  ];
  return (
    <section className="panel">
      <h2>{t('firmware.imagesTitle')}</h2>
      <SortableTable
        label={t('firmware.imagesTitle')}
        columns={columns}
        query={list}
        rowKey={(f) => f.id}
        empty={t('firmware.imagesEmpty')}
      />
    </section>
  );
}

/** The image of a manifest the server took but whose bytes never arrived (an upload cut half way, a closed tab). */
function ResendImage({ firmware: f }: { firmware: Firmware }) {
  const t = useT();
  const qc = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const onPick = async (e: ChangeEvent<HTMLInputElement>) => {
    const image = e.target.files?.[0];
    e.target.value = '';
    setError(null);
    setFailure(null);
    if (!image) return;
    if (image.size !== f.size)
      return setError(t('firmware.imageSizeMismatch', { actual: image.size, expected: f.size }));
    try {
      setProgress(0);
      await uploadFirmwareImage(f.id, image, setProgress);
    } catch (err) {
      setFailure(err);
    } finally {
      setProgress(null);
      void qc.invalidateQueries({ queryKey: queryKeys.admin.all });
    }
  };
  return (
    <span className="cell-note">
      <input
        type="file"
        aria-label={t('firmware.sendImage', { version: f.version })}
        disabled={progress !== null}
        onChange={(e) => void onPick(e)}
      />
      {progress !== null && <progress max={1} value={progress} aria-label={t('firmware.progress')} />}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      <ErrorAlert error={failure} />
    </span>
  );
}
