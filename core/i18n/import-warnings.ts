import type { ImportWarning } from '../imports/trace.ts';
import type { Translate } from './intl.ts';

/** An import's warning in words; the counted ones agree with their count (1 linha, 2 linhas). */
export function importWarningText(t: Translate, w: Pick<ImportWarning, 'code' | 'count' | 'line' | 'file'>): string {
  const count = w.count ?? 0;
  switch (w.code) {
    case 'truncated':
      return t('imports.warnings.truncated', { line: w.line ?? '' });
    case 'badLines':
    case 'badChecksums':
    case 'backwards':
    case 'duplicates':
    case 'jumps':
    case 'gaps':
      return t(`imports.warnings.${w.code}`, { count });
    case 'fileLineUnused':
    case 'leanCalculated':
      return t(`imports.warnings.${w.code}`);
    case 'sameRecording':
      return t('imports.warnings.sameRecording', { file: w.file ?? t('imports.warnings.otherFile') });
  }
}
