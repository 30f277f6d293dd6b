import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*'], message: 'Node built-ins belong to the main process.' };
const electron = { name: 'electron', message: 'Only src/main and src/preload may import electron.' };
const mainCode = { group: ['**/main/**'], message: 'Reach the main process through the contract only.' };
const rendererCode = { group: ['**/renderer/**'], message: 'The main process never imports renderer code.' };
const sqlite = { name: 'better-sqlite3', message: 'Only src/main/storage may import better-sqlite3.' };
const tokenizer = {
  group: [
    'gpt-tokenizer',
    'gpt-tokenizer/*',
    '**/request/count/token-count',
    '**/request/count/token-encodings',
  ],
  message:
    'Only the request module (src/main/request) counts tokens: ask it (SessionContext.tokensOf), which counts per model family and calibrates, in the budget’s unit.',
};
const providerSdks = {
  group: ['ai', '@ai-sdk/*', 'ollama-ai-provider-v2'],
  message: 'Only src/main/llm may import provider SDKs.',
};

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { paths: [electron, sqlite], patterns: [nodeBuiltins, mainCode, tokenizer] },
      ],
    },
  },
  {
    // Component tests render in a DOM (happy-dom) and follow the renderer's hook rules.
    files: ['test/unit/renderer/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [electron, sqlite], patterns: [nodeBuiltins, mainCode, rendererCode] },
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [sqlite], patterns: [nodeBuiltins, mainCode, rendererCode] },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/storage/**', 'src/main/llm/**', 'src/main/request/**', 'src/main/embeddings/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [sqlite], patterns: [rendererCode, providerSdks, tokenizer] },
      ],
    },
  },
  {
    // The request module counts; embeddings size chunks for the embedding model, not the chat's window.
    files: ['src/main/request/**/*.ts', 'src/main/embeddings/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [sqlite], patterns: [rendererCode, providerSdks] }],
    },
  },
  {
    // The composition root builds in dependency order: nothing reaches a service built after it.
    files: ['src/main/app.ts', 'src/main/app-handlers.ts', 'src/main/composition/**/*.ts'],
    rules: {
      '@typescript-eslint/no-use-before-define': ['error', { functions: false, typedefs: false }],
    },
  },
  {
    files: ['src/main/storage/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [rendererCode, providerSdks, tokenizer] }] },
  },
  {
    files: ['src/main/llm/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [sqlite], patterns: [rendererCode, tokenizer] }] },
  },
);
