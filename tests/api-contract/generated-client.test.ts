/**
 * Proof that a third party can use the API from its document alone: TypeScript types generated from
 * the served /api/docs/json with openapi-typescript, a consumer (third-party/consumer.ts) that
 * type-checks against them with openapi-fetch, run against the real server as the Citizen persona
 * signed in through the local OpenID provider.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { signInAs } from '../server-auth/browser.ts';
import { sessionCookie } from '../server-auth/support.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let stack: Stack;
let dir: string;
let petitionId: number;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  await seedTerm(stack.context);
  petitionId = (await seedPetition(stack.context, { title: 'Plant a tree for every citizen', signatures: 3 })).id;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-client-'));
  // The consumer's own project: its code, the generated types and the packages a third party installs.
  fs.copyFileSync(path.join(import.meta.dirname, 'third-party/consumer.ts'), path.join(dir, 'consumer.ts'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2023',
        lib: ['ES2023', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        allowImportingTsExtensions: true,
        verbatimModuleSyntax: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
});
afterAll(async () => {
  await stack?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a client generated from the OpenAPI document', () => {
  it('generates, type-checks and signs and unsigns a petition against the real server', async () => {
    await run(process.execPath, [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), `${stack.baseUrl}/api/docs/json`, '-o', path.join(dir, 'petitions-api.ts')], { cwd: dir });
    const generated = fs.readFileSync(path.join(dir, 'petitions-api.ts'), 'utf8');
    expect(generated).toContain('"/api/petitions/{id}/sign"');
    expect(generated).toContain('signPetition');

    const typecheck = await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`, failed: true }),
    );
    expect(typecheck.stdout).toBe('');

    const { jar } = await signInAs(stack, 'Citizen');
    const cookie = `${stack.context.cookie.name}=${sessionCookie(stack, jar) ?? ''}`;
    const { stdout } = await run(process.execPath, [path.join(dir, 'consumer.ts')], {
      cwd: dir,
      env: { ...process.env, PETITIONS_BASE_URL: stack.baseUrl, PETITIONS_COOKIE: cookie },
    });
    const seen = JSON.parse(stdout) as Record<string, Record<string, unknown>>;
    expect(seen.listed).toEqual({ total: 1, ids: [petitionId] });
    expect(seen.opened).toEqual({ id: petitionId, title: 'Plant a tree for every citizen', signatures: 3, signedByViewer: false });
    expect(seen.signed).toEqual({ signatures: 4, signed: true });
    expect(seen.secondSignature).toEqual({ status: 409, detail: ERRORS.alreadySigned });
    expect(seen.afterSigning).toEqual({ signatures: 4, signedByViewer: true });
    expect(seen.unsigned).toEqual({ signatures: 3, signed: false });
    expect(seen.missing).toEqual({ status: 404, detail: ERRORS.petitionNotFound });
    const signatures = await stack.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petitionId).execute();
    expect(signatures).toHaveLength(3);
  });

  it('refuses a consumer that gets the contract wrong, at compile time', async () => {
    fs.writeFileSync(
      path.join(dir, 'wrong.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './petitions-api.ts';",
        'const api = createClient<paths>({});',
        "await api.POST('/api/petitions/{id}/sign', { params: { path: { petitionId: 1 } }, body: {} });",
        "await api.GET('/api/petitions', { params: { query: { sort: 'loudest' } } });",
        '',
      ].join('\n'),
    );
    const result = await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    fs.rmSync(path.join(dir, 'wrong.ts'));
    expect(result).toMatch(/wrong\.ts\(4,.*error TS2353|wrong\.ts\(4,.*error TS2/);
    expect(result).toMatch(/wrong\.ts\(5,.*error TS2322/);
  });
});
