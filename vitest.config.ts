import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    reporters: process.env.CI_JSON ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
  },
});
