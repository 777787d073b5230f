import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one on CI's two. Most files wait on
    // timers, child processes (real clients, brokers) and fake IndexedDB, so two share two cores well.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: process.env.CI_JSON ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
  },
});
