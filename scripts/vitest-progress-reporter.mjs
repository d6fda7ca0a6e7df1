// A Vitest reporter that appends "start <file>" and "end <file>" lines to $VOLTAS_PROGRESS_FILE,
// so that when a run hangs, scripts/test.mjs can name the test files that never finished.
import { appendFileSync } from 'node:fs';
import path from 'node:path';

const file = process.env.VOLTAS_PROGRESS_FILE;
const note = (what, testModule) => {
  if (file) appendFileSync(file, `${what} ${path.relative(process.cwd(), testModule.moduleId)}\n`);
};

export default class ProgressReporter {
  onTestModuleStart(testModule) {
    note('start', testModule);
  }
  onTestModuleEnd(testModule) {
    note('end', testModule);
  }
}
