import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // Component tests (.tsx) say `// @vitest-environment happy-dom` at their top; the rest run in Node.
          include: ['test/unit/**/*.test.ts', 'test/unit/renderer/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/built-worker.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});
