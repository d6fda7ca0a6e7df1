import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** A layer rule: files matching `files` (tests excepted) may not import what `patterns` name, but for types. */
function serverLayer(files, patterns) {
  return [
    {
      files: [files],
      ignores: ['**/*.test.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          { patterns: patterns.map((p) => ({ ...p, allowTypeImports: true })) },
        ],
      },
    },
  ];
}

/** A query or mutation key written out as an array: keys are made once, in web/src/lib/query-keys.ts. */
const HAND_TYPED_KEY = [
  {
    selector: 'Property[key.name=/^(queryKey|mutationKey)$/] > ArrayExpression',
    message:
      'Make the key with queryKeys (web/src/lib/query-keys.ts): a key written twice is a cache shared by accident.',
  },
];

/** A component that asks the server itself: its query or call belongs in an api module, defined once. */
const INLINE_API_CALL = [
  {
    selector: "ImportSpecifier[imported.name='apiRequest'], CallExpression[callee.name='fetch']",
    message: "Components call the API through an api module (the feature's *.api.ts, or web/src/lib/*-api.ts).",
  },
  {
    selector: "Property[key.name='queryFn']",
    message: 'Define the query once in an api module (queryOptions or a use<X> hook), not in a component.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tmp/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'web/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // bulletproof-react: features never import each other; shared code flows lib/components → features → app.
    files: ['web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+',
              message: 'Features must not import other features; move shared code to web/src/lib or components.',
            },
            {
              regex: '/app/|^#web/(app|features)/',
              message: 'Features must not import the app layer or other features.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/lib/**/*.{ts,tsx}', 'web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/(features|app)/|^#web/(features|app)/',
              message: 'Shared code must not import features or the app layer.',
            },
          ],
        },
      ],
    },
  },
  // One query layer (issue 63): keys come from web/src/lib/query-keys.ts, queries and API calls from
  // the api modules (a feature's *.api.ts, lib's *-api.ts); web/src/lib/query-layer.test.ts shows it bites.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/lib/query-keys.ts', 'web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...HAND_TYPED_KEY] },
  },
  {
    files: ['web/src/**/*.tsx'],
    ignores: ['web/src/**/*.test.tsx'],
    rules: { 'no-restricted-syntax': ['error', ...HAND_TYPED_KEY, ...INLINE_API_CALL] },
  },
  // The server's layers (decision 020): routes → services → repositories → database. Type-only
  // imports are free (a route may name a row type); tests may reach any layer to set up.
  ...serverLayer('server/src/**/*.routes.ts', [
    { regex: '\\.repository(\\.ts)?$', message: 'Routes call services, never repositories.' },
    { regex: '/db/(?!coordination(\\.ts)?$)', message: 'Routes call services, never the database.' },
    { regex: '^kysely$', message: 'Routes call services, never the database.' },
  ]),
  ...serverLayer('server/src/**/*.{service,repository}.ts', [
    {
      regex: '^fastify',
      message: "Services and repositories know nothing of HTTP: that is the routes' and plugins' job.",
    },
    { regex: '\\.routes(\\.ts)?$|/plugins/', message: 'Services and repositories never import routes or plugins.' },
  ]),
  ...serverLayer('server/src/**/*.repository.ts', [
    { regex: '\\.service(\\.ts)?$', message: 'Repositories hold SQL only; services call them, not the other way.' },
  ]),
  ...serverLayer('server/src/plugins/**/*.ts', [
    { regex: '/modules/', message: 'Plugins import no module: app.ts hands them what they need.' },
  ]),
  ...serverLayer('server/src/cli/**/*.ts', [
    { regex: '\\.repository(\\.ts)?$', message: 'The CLI goes through services.' },
  ]),
  ...serverLayer('server/src/{lib,db,blobs}/**/*.ts', [
    { regex: '/(modules|plugins)/', message: 'lib, db and blobs are below the modules: they import none.' },
  ]),
  {
    // core's tests stay out of the server and the web too.
    files: ['core/**/*.test.ts', 'core/**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '/(server|web)/|^#(server|test|web)/', message: 'core must not import server or web code' },
          ],
        },
      ],
    },
  },
  {
    // core is pure: no Node, no DOM, no server or web code (its tests and their fixtures may read files).
    files: ['core/**/*.ts'],
    ignores: ['core/**/*.test.ts', 'core/**/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'core is pure TypeScript' },
            { regex: '/(server|web)/|^#(server|test|web)/', message: 'core must not import server or web code' },
          ],
        },
      ],
    },
  },
  {
    // Specs take Playwright from e2e/fixtures.ts, whose test fails on a CSP violation or an uncaught error.
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              message: "Import from './fixtures': its test fails on CSP violations and uncaught errors.",
            },
          ],
        },
      ],
    },
  },
);
