import type { Plugin } from 'vite';

export type WebApp = 'customer' | 'staff';
export function boundaryProblems(
  app: WebApp,
  chunks: ReadonlyArray<{ fileName: string; moduleIds: readonly string[] }>,
): string[];
export function appBoundary(app: WebApp, webRoot: string): Plugin;
