// The firmware page's upload: a manifest and its signature, checked here before the server is asked,
// then the image with a progress bar.
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { firmwareManifestSchema } from '#core/contracts/firmware.contract.ts';
import { ErrorAlert } from '#web/components/ui/query-status.tsx';
import { queryKeys } from '#web/lib/query-keys.ts';
import { useT } from '#web/i18n/messages.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { uploadFirmwareImage, useCreateFirmware } from './firmware.api';
import { Field } from './firmware-field';

/** What a signed manifest and its signature must look like before the server is asked. */
function checkSigned(
  manifest: string,
  signature: string,
): { manifest?: 'firmware.manifestInvalid'; signature?: 'firmware.signatureInvalid'; size?: number } {
  const errors: { manifest?: 'firmware.manifestInvalid'; signature?: 'firmware.signatureInvalid'; size?: number } = {};
  try {
    const parsed = firmwareManifestSchema.safeParse(JSON.parse(manifest));
    if (parsed.success) errors.size = parsed.data.size;
    else errors.manifest = 'firmware.manifestInvalid';
  } catch {
    errors.manifest = 'firmware.manifestInvalid';
  }
  // Ed25519: 64 bytes, 88 base64 characters with their padding.
  if (!/^[A-Za-z0-9+/]{86}==$/.test(signature.trim())) errors.signature = 'firmware.signatureInvalid';
  return errors;
}

type UploadErrors = Partial<Record<'file' | 'manifest' | 'signature' | 'image', string>>;

/** Manifest and signature (pasted, or read from the signing command's output), then the image with a progress bar. */
export function UploadPanel() {
  const t = useT();
  const qc = useQueryClient();
  const create = useCreateFirmware();
  const [manifest, setManifest] = useState('');
  const [signature, setSignature] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<UploadErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  // The manifest the server took but whose image did not arrive: sending again sends only the image.
  const [created, setCreated] = useState<{ manifest: string; id: string } | null>(null);

  const onSignedFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    try {
      const out = JSON.parse(await file.text()) as { manifest?: unknown; signature?: unknown };
      if (typeof out.manifest !== 'string' || typeof out.signature !== 'string') throw new Error('not signed');
      setManifest(out.manifest);
      setSignature(out.signature);
      setErrors((x) => ({ ...x, file: undefined, manifest: undefined, signature: undefined }));
    } catch {
      setErrors((x) => ({ ...x, file: t('firmware.signedFileInvalid') }));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    setFailure(null);
    const checked = checkSigned(manifest, signature);
    const next: UploadErrors = {};
    if (checked.manifest) next.manifest = t(checked.manifest);
    if (checked.signature) next.signature = t(checked.signature);
    if (!image) next.image = t('firmware.imageRequired');
    else if (checked.size !== undefined && image.size !== checked.size)
      next.image = t('firmware.imageSizeMismatch', { actual: image.size, expected: checked.size });
    setErrors(next);
    if (Object.keys(next).length || !image) return;
    try {
      const id =
        created?.manifest === manifest
          ? created.id
          : (await create.mutateAsync({ manifest, signature: signature.trim() })).id;
      setCreated({ manifest, id });
      setProgress(0);
      await uploadFirmwareImage(id, image, setProgress);
      const m = firmwareManifestSchema.parse(JSON.parse(manifest));
      setDone(t('firmware.uploaded', { version: m.version, class: m.class }));
      setCreated(null);
      setManifest('');
      setSignature('');
      setImage(null);
    } catch (err) {
      setFailure(err);
    } finally {
      setProgress(null);
      void qc.invalidateQueries({ queryKey: queryKeys.admin.all });
    }
  };

  const cut = failure instanceof ApiError && (failure.code === 'auth/network-request-failed' || failure.status === 0);
  const busy = progress !== null || create.isPending;
  return (
    <section className="panel" aria-labelledby="upload-title">
      <h2 id="upload-title">{t('firmware.uploadTitle')}</h2>
      <p className="muted">{t('firmware.uploadHelp')}</p>
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <Field id="fw-signed" label={t('firmware.signedFile')} error={errors.file}>
          <input
            id="fw-signed"
            type="file"
            accept="application/json,.json,.txt"
            onChange={(e) => void onSignedFile(e)}
          />
        </Field>
        <Field id="fw-manifest" label={t('firmware.manifest')} error={errors.manifest}>
          <textarea
            id="fw-manifest"
            rows={4}
            spellCheck={false}
            autoComplete="off"
            value={manifest}
            onChange={(e) => setManifest(e.target.value)}
          />
        </Field>
        <Field id="fw-signature" label={t('firmware.signature')} error={errors.signature}>
          <input
            id="fw-signature"
            spellCheck={false}
            autoComplete="off"
            value={signature}
            onChange={(e) => setSignature(e.target.value)}
          />
        </Field>
        <Field id="fw-image" label={t('firmware.image')} error={errors.image}>
          <input id="fw-image" type="file" onChange={(e) => setImage(e.target.files?.[0] ?? null)} />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {t('firmware.upload')}
        </button>
        {progress !== null && (
          <p role="status">
            <progress max={1} value={progress} aria-label={t('firmware.progress')} />{' '}
            {t('firmware.uploading', { pct: Math.round(progress * 100) })}
          </p>
        )}
        {cut ? (
          <p className="alert alert-error" role="alert">
            {t('firmware.uploadCut')}
          </p>
        ) : (
          <ErrorAlert error={failure} />
        )}
        {done && (
          <p className="alert alert-success" role="status">
            {done}
          </p>
        )}
      </form>
    </section>
  );
}
