import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WEB_SRC = path.resolve(import.meta.dirname, '..');
/** Attributes a rider reads or hears (a screen reader reads the aria ones). */
const WORDED_ATTRIBUTES = new Set([
  'title',
  'alt',
  'placeholder',
  'label',
  'aria-label',
  'aria-description',
  'errorText',
]);
/** Units, symbols and format names are the same in every language; any other run of letters is a word. */
const NOT_WORDS = new Set(['km', 'h', 'Hz', 'GPS', 'CSV', 'GPX', 'MP4', 'Wi', 'Fi', 'ms']);
const isWorded = (text: string) => (text.match(/\p{L}{2,}/gu) ?? []).some((w) => !NOT_WORDS.has(w));

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return tsxFiles(full);
    return e.name.endsWith('.tsx') && !e.name.endsWith('.test.tsx') ? [full] : [];
  });
}

/** Words written into the JSX of a file: its text and its worded attributes' string literals. */
function wordsInJsx(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (n: ts.Node) =>
    `${path.relative(WEB_SRC, file)}:${source.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n)) {
      const text = n.getText().trim();
      if (isWorded(text)) found.push(`${at(n)}: ${JSON.stringify(text)}`);
    } else if (ts.isJsxAttribute(n) && WORDED_ATTRIBUTES.has(n.name.getText()) && n.initializer) {
      const init = n.initializer;
      const literal = ts.isStringLiteral(init)
        ? init.text
        : ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
          ? init.expression.text
          : undefined;
      if (literal !== undefined && isWorded(literal))
        found.push(`${at(n)}: ${n.name.getText()}=${JSON.stringify(literal)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

describe('the web app', () => {
  it('writes no words outside the catalogs (core/i18n/messages): every text a rider reads goes through t()', () => {
    expect(tsxFiles(WEB_SRC).flatMap((file) => wordsInJsx(file))).toEqual([]);
  });

  it('the check finds words written in JSX, and lets symbols, units and t() through', () => {
    const probe = path.join(WEB_SRC, 'probe.tsx');
    expect(
      wordsInJsx(
        probe,
        `const a = <p title="Olá" aria-label={'Fechar'}>Voltas rápidas</p>;
         const b = <span title={t('app.name')}>{t('laps.title')} · km/h ± 0,1 s</span>;`,
      ),
    ).toEqual(['probe.tsx:1: title="Olá"', 'probe.tsx:1: aria-label="Fechar"', 'probe.tsx:1: "Voltas rápidas"']);
  });
});
