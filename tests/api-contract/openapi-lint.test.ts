/**
 * The served OpenAPI document is a contract: Redocly's recommended rules (redocly.yaml) report no
 * error and no warning, and every operation carries what a client generator needs.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REDOCLY = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Document {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

let stack: Stack;
let document: Document;
let dir: string;

function operations(): { name: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([route, item]) =>
    METHODS.flatMap((method) => (item[method] ? [{ name: `${method.toUpperCase()} ${route}`, method, operation: item[method] }] : [])),
  );
}

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  const response = await fetch(`${stack.baseUrl}/api/docs/json`);
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-openapi-'));
});
afterAll(async () => {
  await stack?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the served OpenAPI document', () => {
  it('passes Redocly lint with the recommended rules: 0 errors, 0 warnings', async () => {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document, null, 2));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json'],
      { cwd: ROOT, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('names this server and describes every tag', () => {
    expect(document.servers).toEqual([{ url: stack.baseUrl, description: 'This server' }]);
    for (const tag of document.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
  });

  it('gives every operation a unique, stable operationId, a tag and its security', () => {
    const ids = operations().map(({ name, operation }) => {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.tags?.length, name).toBe(1);
      expect(Array.isArray(operation.security), name).toBe(true);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    // Spot checks that the names say what the operations do.
    const byName = Object.fromEntries(operations().map(({ name, operation }) => [name, operation.operationId]));
    expect(byName['GET /api/petitions']).toBe('listPetitions');
    expect(byName['POST /api/petitions/{id}/sign']).toBe('signPetition');
    expect(byName['DELETE /api/parliamentary-terms/{id}']).toBe('deleteTerm');
  });

  it('says which calls are public, which need a session, and which the CSRF header', () => {
    const security = Object.fromEntries(operations().map(({ name, operation }) => [name, operation.security]));
    expect(security['GET /api/petitions']).toEqual([]);
    expect(security['GET /api/petitions/daily-allowance']).toEqual([{ session: [] }, { bearer: [] }]);
    expect(security['POST /api/petitions/{id}/sign']).toEqual([{ session: [], csrf: [] }, { bearer: [] }]);
    expect(security['POST /api/petitions/check-expired']).toEqual([{ csrf: [] }, { bearer: [] }]);
  });

  it('lists the problems every operation can answer (the stronger form of operation-4xx-response)', () => {
    for (const { name, method, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((s) => s.startsWith('2')), `${name} has a 2xx`).toBe(true);
      expect(statuses, name).toContain('500');
      const takesInput = (operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined;
      if (takesInput) expect(statuses, `${name} takes input`).toContain('400');
      if (operation.requestBody !== undefined) expect(statuses, name).toEqual(expect.arrayContaining(['413', '415']));
      if ((operation.security?.length ?? 0) > 0 && operation.security?.some((s) => 'session' in s)) {
        expect(statuses, `${name} needs a session`).toContain('401');
      }
      if (method !== 'get') expect(statuses, `${name} is unsafe (CSRF)`).toContain('403');
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        expect(operation.responses[status]?.content?.['application/problem+json']?.schema?.$ref, `${name} ${status}`).toBe('#/components/schemas/Problem');
      }
    }
  });

  it('has examples for the main bodies', () => {
    const schemas = (document as unknown as { components: { schemas: Record<string, { examples?: unknown[] }> } }).components.schemas;
    for (const name of ['Petition', 'PetitionDetail', 'Problem', 'CreatePetitionInput', 'GovernmentResponseInput', 'DebateInput', 'TermRequestInput']) {
      expect(schemas[name]?.examples?.length, name).toBeGreaterThan(0);
    }
  });
});
