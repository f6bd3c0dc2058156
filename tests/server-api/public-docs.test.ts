import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api-harness.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.close();
});

interface Operation {
  tags?: string[];
  summary?: string;
  responses?: Record<string, unknown>;
}

const PUBLIC_OPERATIONS: [string, string][] = [
  ['get', '/api/petitions'],
  ['post', '/api/petitions'],
  ['get', '/api/petitions.csv'],
  ['get', '/api/petitions/daily-allowance'],
  ['get', '/api/petitions/{id}'],
  ['get', '/api/petitions/{id}/signers'],
  ['get', '/api/petitions/{id}/count'],
  ['get', '/api/petitions/{id}/signatures-by-hour'],
  ['post', '/api/petitions/{id}/sign'],
  ['post', '/api/petitions/{id}/unsign'],
  ['post', '/api/petitions/check-expired'],
  ['get', '/api/stats'],
];

describe('OpenAPI document', () => {
  it('describes every public petitions call with a tag, a summary and its replies', async () => {
    const response = await api.request({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json<{ paths: Record<string, Record<string, Operation>> }>().paths;
    for (const [method, path] of PUBLIC_OPERATIONS) {
      const operation = paths[path]?.[method];
      expect(operation, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(operation!.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
      expect(operation!.summary, `${method} ${path} summary`).toBeTruthy();
      expect(Object.keys(operation!.responses ?? {}), `${method} ${path} responses`).toContain(method === 'post' && path === '/api/petitions' ? '201' : '200');
    }
  });
});
