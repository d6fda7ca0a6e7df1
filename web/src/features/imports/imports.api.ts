import { useQuery } from '@tanstack/react-query';
import { importResponseSchema, importStorageSchema, type ImportAnswer } from '#core/contracts/imports.contract.ts';
import { isErrorCode } from '#core/errors.ts';
import { ApiError, apiRequest, languageHeaders } from '#web/lib/api-client.ts';
import { queryKeys } from '#web/lib/query-keys.ts';

/** What the rider stores and may store (their quota), bytes. */
export function useImportStorage() {
  return useQuery({
    queryKey: queryKeys.importStorage,
    queryFn: () => apiRequest('/api/imports/storage', { schema: importStorageSchema }),
  });
}

/** A refused import: the error, and the server's Portuguese words for it (they name what was wrong). */
export class ImportFailure extends Error {
  constructor(
    readonly error: ApiError,
    readonly mensagem?: string,
  ) {
    super(error.message);
  }
}

export type UploadResult = { created: boolean; answer: ImportAnswer };

/**
 * Sends one file to POST /api/imports with upload progress (XMLHttpRequest: fetch reports none).
 * Resolves with the answer, or rejects with an ApiError carrying the server's code.
 */
export function uploadImport(
  file: File,
  onProgress: (share: number) => void,
  signal?: AbortSignal,
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/imports?filename=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    for (const [name, value] of Object.entries(languageHeaders())) xhr.setRequestHeader(name, value);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { code?: string; message?: string; requestId?: string; mensagem?: string } | null;
      if (xhr.status === 200 || xhr.status === 201) {
        const parsed = importResponseSchema.safeParse(body);
        if (parsed.success) resolve({ created: xhr.status === 201, answer: parsed.data });
        else reject(new ApiError('storage/unknown', xhr.status, 'unexpected answer'));
        return;
      }
      const code = isErrorCode(body?.code) ? body.code : 'storage/unknown';
      reject(
        new ImportFailure(
          new ApiError(code, xhr.status, body?.message ?? `HTTP ${xhr.status}`, {}, body?.requestId),
          body?.mensagem,
        ),
      );
    };
    xhr.onerror = () => reject(new ImportFailure(new ApiError('auth/network-request-failed', 0, 'network error')));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(file);
  });
}
