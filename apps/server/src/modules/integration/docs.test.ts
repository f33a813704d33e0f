/**
 * Issue 38 point 3: docs/integration.md is complete on its own. Every value a client sends or reads that
 * the integration API's contracts fix to a list (statuses, kinds, event types, scopes...) and every
 * record type a bulk line may name is written in the guide, so an insurer never has to read the OpenAPI
 * document or the code to find one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationScopes } from '@portal/contracts/call';
import { buildOpenApiDocument } from '@portal/contracts/openapi';
import '@portal/contracts/integration/index';
import { repoRoot } from '../../config';
import { createTestApp, type TestContext } from '../../../test/helpers';

const guide = readFileSync(path.join(repoRoot, 'docs', 'integration.md'), 'utf8');

/** Whether the guide names the value as a word of its own (in prose, a table or an example). */
const named = (value: string) =>
  new RegExp(`(^|[^A-Za-z0-9_.-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`).test(
    guide,
  );

/** Every string an `enum` or `const` allows, anywhere in the schemas reachable from the integration calls. */
function fixedValues(): string[] {
  const doc = buildOpenApiDocument();
  const components = doc.components.schemas as Record<string, unknown>;
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const schema = node as Record<string, unknown>;
    if (typeof schema['$ref'] === 'string') {
      walk(components[schema['$ref'].split('/').pop()!]);
    }
    for (const value of [schema['const'], ...(Array.isArray(schema['enum']) ? schema['enum'] : [])]) {
      if (typeof value === 'string') found.add(value);
    }
    for (const child of Object.values(schema)) walk(child);
  };
  for (const [route, item] of Object.entries(doc.paths)) {
    if (route.startsWith('/integration/')) walk(item);
  }
  return [...found].sort();
}

describe('docs/integration.md', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('names every value the integration contracts fix to a list', () => {
    const values = fixedValues();
    // Enough to be sure the walk reached the records, the documents and the events.
    expect(values).toEqual(
      expect.arrayContaining(['RenewalCustomerReady', 'quote_summary', 'customer.account.closed', 'SPLASH']),
    );
    expect(values.filter((value) => !named(value))).toEqual([]);
  });

  it('names every scope and every record type a bulk line may carry', () => {
    const types = t.app.ctx.services.integration.types();
    expect(types.length).toBeGreaterThan(5);
    expect([...integrationScopes, ...types].filter((value) => !named(value))).toEqual([]);
  });
});
