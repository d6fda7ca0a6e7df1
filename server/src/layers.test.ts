import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's layer rule (decision 020) is held by lint: these are the imports it must refuse,
// and a few it must allow. `npm test` runs lint over the tree; this shows the rule itself bites.
const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

describe('server layers', () => {
  it.each([
    [
      'server/src/modules/admin/admin.routes.ts',
      "import { listAudit } from '../audit/audit.repository';",
      /Routes call services/,
    ],
    ['server/src/modules/sessions/sessions.routes.ts', "import { sql } from 'kysely';", /Routes call services/],
    [
      'server/src/modules/users/me.routes.ts',
      "import { inTransaction } from '../../db/transaction';",
      /never the database/,
    ],
    [
      'server/src/plugins/session.ts',
      "import { findSession } from '../modules/auth/auth-sessions.repository';",
      /Plugins import no module/,
    ],
    [
      'server/src/cli/voltas.ts',
      "import { findUser } from '../modules/users/users.repository';",
      /CLI goes through services/,
    ],
    [
      'server/src/modules/users/users.service.ts',
      "import type { FastifyRequest } from 'fastify';\nimport Fastify from 'fastify';",
      /know nothing of HTTP/,
    ],
    [
      'server/src/modules/users/users.repository.ts',
      "import { createUsersService } from './users.service';",
      /hold SQL only/,
    ],
    [
      'server/src/lib/metrics.ts',
      "import { sessionsRoutes } from '../modules/sessions/sessions.routes';",
      /import none/,
    ],
  ])('%s refuses: %s', async (file, code, message) => {
    const found = await problems(
      file,
      `${code}\nexport const used = [${/import \{ (\w+)/.exec(code)?.[1] ?? 'Fastify'}];\n`,
    );
    expect(found.length, found.join('\n')).toBeGreaterThan(0);
    expect(found.join('\n')).toMatch(message);
  });

  it.each([
    [
      'server/src/modules/sessions/sessions.routes.ts',
      "import type { Viewer } from './sessions.repository';\nexport type V = Viewer;",
    ],
    [
      'server/src/modules/users/users.service.ts',
      "import { findUser } from './users.repository';\nexport const f = findUser;",
    ],
    ['server/src/app.ts', "import { findUser } from './modules/users/users.repository';\nexport const f = findUser;"],
    [
      'server/src/modules/users/me.integration.test.ts',
      "import { setRoles } from './users.repository';\nexport const f = setRoles;",
    ],
  ])('%s may: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
