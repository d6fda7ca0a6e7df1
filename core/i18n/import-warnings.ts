// An import's warnings as catalog messages, and in words in a given language.
import type { MessageRef } from '../errors.ts';
import { MAX_FIXES, type ImportWarning } from '../imports/trace.ts';
import type { Translate } from './intl.ts';

type Warning = Pick<ImportWarning, 'code' | 'count' | 'line' | 'file'>;

/** An import's warning as a catalog message; the counted ones agree with their count (1 linha, 2 linhas). */
export function importWarningRef(w: Warning): MessageRef {
  const count = w.count ?? 0;
  switch (w.code) {
    case 'truncated':
      return { id: 'imports.warnings.truncated', values: { line: w.line ?? '' } };
    case 'badLines':
    case 'badChecksums':
    case 'backwards':
    case 'duplicates':
    case 'jumps':
    case 'gaps':
    case 'loggerLapsUnmatched':
      return { id: `imports.warnings.${w.code}`, values: { count } };
    case 'beyondLimit':
      return { id: 'imports.warnings.beyondLimit', values: { count, max: MAX_FIXES } };
    case 'fileLineUnused':
    case 'leanCalculated':
      return { id: `imports.warnings.${w.code}` };
    case 'sameRecording':
      return w.file === undefined
        ? { id: 'imports.warnings.sameRecordingUnnamed' }
        : { id: 'imports.warnings.sameRecording', values: { file: w.file } };
  }
}

/** A catalog message with its values, in the language of `t`. */
export function say(t: Translate, ref: MessageRef): string {
  return (t as (id: string, values?: object) => string)(ref.id, 'values' in ref ? ref.values : undefined);
}

/** An import's warning in words. */
export function importWarningText(t: Translate, w: Warning): string {
  return say(t, importWarningRef(w));
}
