// CommonJS on purpose: package.json has no "type": "module", and ESLint must load this file on
// every Node we support without relying on ESM syntax detection.
const { builtinModules } = require('node:module');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const reactHooks = require('eslint-plugin-react-hooks');

const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));
const exact = (names) => `^(${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`;

/** Relative imports that climb into another layer of src/. */
const intoLayer = (layers) => `^(\\.\\./)+(${layers.join('|')})(/|$)`;

const rules = {
  electron: { regex: exact(['electron']), message: 'Only src/main and src/preload may import electron.' },
  node: {
    regex: `^node:|${exact(nodeBuiltins)}`,
    message: 'Node built-ins belong to src/main or src/cli; this layer must run in a browser.',
  },
  aws: {
    regex: '^@(aws-sdk|smithy)/',
    message:
      'The AWS SDK lives in src/main: the renderer asks through the contract, credentials stay in main.',
  },
  react: { regex: exact(['react', 'react-dom', 'zustand']), message: 'src/shared is UI-free.' },
};

const restrict = (...patterns) => ['error', { patterns }];

const mainRule = {
  regex: intoLayer(['renderer', 'preload']),
  message: 'Main and the CLI never import UI or preload code.',
};

/**
 * One door for writes (shared/STYLE.md §21): the SDK's write commands are imported only in
 * src/main/dynamo/writes/, which journals, guards and tells the views. The aggregated `DynamoDB`
 * client is refused with them: its putItem()/updateItem() methods are the same writes.
 */
const writeDoorRule = {
  regex: '^@aws-sdk/client-dynamodb$',
  importNames: [
    'PutItemCommand',
    'UpdateItemCommand',
    'DeleteItemCommand',
    'TransactWriteItemsCommand',
    'BatchWriteItemCommand',
    'ExecuteStatementCommand',
    'BatchExecuteStatementCommand',
    'ExecuteTransactionCommand',
    'DynamoDB',
  ],
  message:
    'Writes to DynamoDB go through the one write door, src/main/dynamo/writes/ (journal, guards, every view told).',
};

/** The document client's commands are the same writes under other names. */
const documentWriteDoorRule = {
  regex: '^@aws-sdk/lib-dynamodb$',
  importNames: [
    'PutCommand',
    'UpdateCommand',
    'DeleteCommand',
    'TransactWriteCommand',
    'BatchWriteCommand',
    'ExecuteStatementCommand',
    'BatchExecuteStatementCommand',
    'ExecuteTransactionCommand',
    'DynamoDBDocument',
    'DynamoDBDocumentClient',
  ],
  message: writeDoorRule.message,
};

/**
 * `import()` and `require()` reach every command of the SDK past no-restricted-imports, so
 * outside the door the DynamoDB SDK is imported statically, where the names above are checked.
 */
const dynamoModules = '/^@aws-sdk.(client-dynamodb|lib-dynamodb)$/';
const writeDoorSyntax = [
  'error',
  {
    selector: `ImportExpression[source.value=${dynamoModules}]`,
    message: `${writeDoorRule.message} Import the DynamoDB SDK statically, so the write commands stay checked.`,
  },
  {
    selector: `CallExpression[callee.name='require'][arguments.0.value=${dynamoModules}]`,
    message: `${writeDoorRule.message} Import the DynamoDB SDK statically, so the write commands stay checked.`,
  },
];

/**
 * One of each (issue 27): one DynamoDB client builder, src/main/aws/dynamo-client.ts (transport,
 * `__proto__` names, read-only guard), and one paged read, src/main/dynamo/read/ (bounded, retried,
 * checkpointable, on the wire path).
 */
const oneClientBuilder = {
  selector: "NewExpression[callee.name='DynamoDBClient']",
  message: 'Build DynamoDB clients with dynamoClient() (src/main/aws/dynamo-client.ts): the one builder.',
};
const oneReadEngine = {
  selector: 'NewExpression[callee.name=/^(Scan|Query)Command$/]',
  message: 'Query and Scan pages are read by the one read engine, src/main/dynamo/read/segmented-read.ts.',
};

/** Node globals for the few plain-JS files (configs, scripts, bin). */
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename',
    'Buffer',
    'URL',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'AbortController',
    'fetch',
  ].map((name) => [name, 'readonly']),
);

module.exports = tseslint.config(
  {
    // Root dot-folders are scratch space (.tmp, a helper's probes) or CI shell scripts, never source.
    ignores: ['out/**', 'dist/**', 'release/**', 'coverage/**', 'node_modules/**', '.*/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // noUncheckedIndexedAccess already makes every index read `T | undefined`, so each one is a
      // decision; after a bounds check `rows[i]!` states it honestly, and the rewrites the rule
      // pushes toward (`as T`, dead `if (!x) continue`) hide the same assumption less visibly.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },

  // Boundaries (shared/STYLE.md §13). Each layer names what it may not reach. First the write
  // door for every source file, so a new folder under src/ has it before it has a layer of its own.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/main/dynamo/writes/**'],
    rules: {
      'no-restricted-imports': restrict(writeDoorRule, documentWriteDoorRule),
      'no-restricted-syntax': writeDoorSyntax,
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      // zustand actions are closures read off the state (`useStore((s) => s.load)`); the rule
      // cannot tell them from class methods and flags every selector.
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-imports': restrict(rules.electron, rules.node, rules.aws, {
        regex: intoLayer(['main', 'preload', 'cli']),
        message: 'The renderer talks to main only through the contract (src/shared/ipc) and its ipc/ client.',
      }),
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(rules.electron, rules.node, rules.react, rules.aws, {
        regex: intoLayer(['main', 'renderer', 'preload', 'cli']),
        message: 'src/shared depends on nothing else in src/.',
      }),
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        {
          regex: '^(?!electron$)(?!\\.{1,2}/)',
          message: 'The preload may import only electron and src/shared.',
        },
        { regex: '^\\.\\./(?!shared/)', message: 'The preload may import only electron and src/shared.' },
      ),
    },
  },
  {
    files: ['src/main/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(mainRule, writeDoorRule, documentWriteDoorRule),
    },
  },
  {
    files: ['src/main/dynamo/writes/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(mainRule),
    },
  },
  // One no-restricted-syntax list per file (a later block replaces an earlier one's): the write
  // door's selectors are repeated here beside the one-of-each ones, except inside the door.
  {
    files: ['src/main/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-syntax': [...writeDoorSyntax, oneClientBuilder, oneReadEngine] },
  },
  {
    files: ['src/main/dynamo/writes/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', oneClientBuilder, oneReadEngine] },
  },
  {
    files: ['src/main/aws/dynamo-client.ts'],
    rules: { 'no-restricted-syntax': [...writeDoorSyntax, oneReadEngine] },
  },
  {
    files: ['src/main/dynamo/read/**/*.ts'],
    rules: { 'no-restricted-syntax': [...writeDoorSyntax, oneClientBuilder] },
  },
  {
    // The result-set worker holds fetched items and their views; the DynamoDB side hands it
    // response bytes and written items (dynamo/ → resultsets/), never the other way round, so
    // the worker's bundle stays free of the SDK and the read loop.
    files: ['src/main/resultsets/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(mainRule, rules.aws, {
        regex: '^(\\.\\./)+(main/)?(dynamo|aws)(/|$)',
        message: 'resultsets/ does not depend on dynamo/ or aws/: they call it, not the other way round.',
      }),
    },
  },

  {
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      // vi.fn() members and expect(obj.method) are not real unbound calls.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: nodeGlobals },
  },
  {
    files: ['**/*.{js,cjs}'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
