/**
 * Performance budget: at most 100 KB gzip of JavaScript before the home and petition pages can
 * render (entry chunk, the page's chunk and everything they import statically). Staff screens and
 * the chart must stay in lazy chunks. Builds in memory; nothing is written to dist-web.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { Rolldown } from 'vite';

const BUDGET_BYTES = 100 * 1024;
const CONFIG = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));

type Chunk = Rolldown.OutputChunk;

async function buildChunks(): Promise<Chunk[]> {
  // vite.config.ts switches NODE_ENV to production for builds; give this worker its own back.
  const nodeEnv = process.env.NODE_ENV;
  const result = await build({ configFile: CONFIG, logLevel: 'silent', build: { write: false } }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((o) => o.output.filter((c): c is Chunk => c.type === 'chunk'));
}

function staticClosure(chunks: Chunk[], start: string[]): Set<string> {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of byName.get(name)?.imports ?? []) visit(next);
  };
  start.forEach(visit);
  return seen;
}

describe('bundle budget', () => {
  it('keeps initial JS of the home and petition pages under 100 KB gzip, staff and chart lazy', async () => {
    const chunks = await buildChunks();
    const entry = chunks.find((c) => c.isEntry);
    expect(entry).toBeDefined();
    const gzip = (name: string) => gzipSync(chunks.find((c) => c.fileName === name)!.code).length;
    const pageChunk = (module: string) => chunks.find((c) => c.facadeModuleId?.endsWith(module));

    for (const module of ['pages/HomePage.tsx', 'pages/detail/PetitionDetailPage.tsx', 'pages/PetitionListPage.tsx']) {
      const page = pageChunk(module);
      expect(page, module).toBeDefined();
      const files = staticClosure(chunks, [entry!.fileName, page!.fileName]);
      const total = [...files].reduce((sum, f) => sum + gzip(f), 0);
      expect(total, `${module}: ${(total / 1024).toFixed(1)} KB gzip`).toBeLessThanOrEqual(BUDGET_BYTES);
      const modules = [...files].flatMap((f) => Object.keys(chunks.find((c) => c.fileName === f)!.modules));
      expect(modules.filter((m) => m.includes('/src-renderer/staff/')), `${module} pulls in staff code`).toEqual([]);
      expect(modules.filter((m) => m.endsWith('SignaturesChart.tsx')), `${module} pulls in the chart`).toEqual([]);
      expect(modules.filter((m) => m.includes('/node_modules/zod/')), `${module} pulls in zod`).toEqual([]);
    }
  }, 120_000);
});
