import { defineConfig } from 'vitest/config';

/**
 * Tests that compare how long answers take (no user enumeration through timing): they run after the
 * others, one file at a time, so no other test file competes with them for the CPU.
 */
const timingTests = ['src/platform/notifier/queue.test.ts'];

const server = {
  root: './apps/server',
  // One module graph per worker, not per file: importing the server's (Fastify, the OpenID provider,
  // PGlite) cost seconds a file. Each file still builds its own apps and databases (test/helpers.ts), and
  // counts its rate limits under its own prefix.
  isolate: false,
  environment: 'node' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

// One runner for the whole repository; each package is a project with its own environment.
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on CI's two, which left the
    // second core idle while server tests wait on timers, the database and the network (decision 018).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'contracts',
          root: './packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: timingTests,
          globalSetup: ['./test/global-setup.ts'],
        },
      },
      {
        test: {
          ...server,
          name: 'server-timing',
          include: timingTests,
          // The embedded database's template only: the PostgreSQL database was prepared by the first group.
          globalSetup: ['./test/global-setup-template.ts'],
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
        },
      },
      './apps/web/vite.config.ts',
      {
        test: {
          name: 'repo',
          root: '.',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
    ],
  },
});
