// Vite plugin: the message catalogs reach the browser already parsed (FormatJS ASTs).
import { pathToFileURL } from 'node:url';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

const CATALOG = /[\\/]core[\\/]i18n[\\/]messages[\\/](?!args\.generated)[^\\/]+\.ts$/;

/**
 * The catalogs (core/i18n/messages/*.ts) reach the browser already parsed, as FormatJS's message
 * ASTs, and the ICU parser stays out of the bundle (the build aliases it to its no-parser entry):
 * about 7 KB (gzip) less JavaScript before /login can render. Each catalog module is loaded in
 * Node (plain object literals of strings) and written out as the same exports, parsed.
 */
export function precompiledMessages(): Plugin {
  return {
    name: 'voltas:precompiled-messages',
    apply: 'build',
    enforce: 'pre',
    async load(id) {
      if (!CATALOG.test(id)) return null;
      const module = (await import(`${pathToFileURL(id).href}?build=${Date.now()}`)) as Record<string, unknown>;
      // Words alone (most messages) as a call that makes their one-literal AST: a third of the bytes.
      let code = 'const w = (value) => [{ type: 0, value }];\n';
      for (const [name, messages] of Object.entries(module)) {
        if (typeof messages !== 'object' || messages === null) continue;
        const entries = Object.entries(messages as Record<string, string>).map(([key, text]) => {
          const ast = parse(text);
          const only = ast.length === 1 ? ast[0] : undefined;
          const value = only?.type === TYPE.literal ? `w(${JSON.stringify(only.value)})` : JSON.stringify(ast);
          return `  ${JSON.stringify(key)}: ${value},`;
        });
        code += `export const ${name} = {\n${entries.join('\n')}\n};\n`;
      }
      return code;
    },
  };
}
