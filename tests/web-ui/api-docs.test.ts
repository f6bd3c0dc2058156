/**
 * /api/docs is HTML on the session cookie's origin: it carries a Content-Security-Policy that
 * forbids framing, and Swagger UI still works under it in a real Chromium (no CSP violation).
 */
import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectOnPage, launchBrowser, openPage } from '../support/chromium.ts';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('/api/docs', () => {
  it('forbids framing and inline script on every spelling of the page', async () => {
    for (const path of ['/api/docs', '/api/docs/', '/%61pi/docs', '/api/docs/static/index.html']) {
      const response = await fetch(`${stack.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(policy, path).toMatch(/script-src 'self';/);
      expect(policy, path).not.toContain('unsafe-eval');
      await response.body?.cancel();
    }
  });

  it('renders Swagger UI under that policy without a single violation', async () => {
    const { page, errors } = await openPage(browser);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${stack.baseUrl}/api/docs`);
    await expectOnPage(page.getByText('Petitions API').first()).toBeVisible();
    await expectOnPage(page.getByText('/api/petitions/{id}/sign', { exact: true }).first()).toBeVisible();
    // Opening an operation renders its schemas and examples (highlighted code uses style attributes).
    await page.getByText('/api/petitions/{id}/sign', { exact: true }).first().click();
    await expectOnPage(page.getByText('Responses').first()).toBeVisible();
    const reported = await page.evaluate(() => document.querySelectorAll('.opblock').length);
    expect(reported).toBeGreaterThan(20);
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('cannot be shown in a frame of another site', async () => {
    const { page } = await openPage(browser);
    await page.route('http://evil.example/', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<iframe src="${stack.baseUrl}/api/docs" title="docs"></iframe>` }),
    );
    const framed = page.waitForRequest(`${stack.baseUrl}/api/docs`);
    await page.goto('http://evil.example/');
    await framed;
    // Give Swagger UI the time it needs to render, were it allowed to run.
    await page.waitForTimeout(1500);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const framedText = await frame?.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    // Chromium replaces a frame refused by frame-ancestors with its error page.
    expect(frame?.url()).toBe('chrome-error://chromewebdata/');
    expect(framedText ?? '').not.toContain('Petitions API');
  });
});
