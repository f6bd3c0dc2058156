/**
 * Real Chromium for the browser journeys (tests/web-ui, tests/console-ui, tests/console-shell):
 * Debian's Chromium driven by Playwright, one browser per test file, a fresh context per test that
 * closes when the test ends (passed or failed), Playwright's retrying assertions, and an axe-core
 * check that fails with a readable list.
 *
 *   await expectOnPage(page.getByRole('heading', { name: 'Start a petition' })).toBeVisible();
 *
 * `expectOnPage` is Playwright's own `expect` (playwright/test; it needs no Playwright runner): it
 * retries until the element is visible or PAGE_TIMEOUT_MS passes, then fails with what it saw.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright';
import { chromium } from 'playwright';
import { expect as playwrightExpect } from 'playwright/test';
import { expect, onTestFinished } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const DESKTOP = { width: 1100, height: 900 };
export const PHONE = { width: 360, height: 740 };

/** How long a page action or an assertion on a page waits (generous: the machine is shared). */
export const PAGE_TIMEOUT_MS = 20_000;

/** Playwright's assertions on locators and pages, retrying up to PAGE_TIMEOUT_MS. */
export const expectOnPage = playwrightExpect.configure({ timeout: PAGE_TIMEOUT_MS });

/** Playwright gives every launch a fresh temporary profile (user-data dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors seen so far (a journey should end with none). */
  errors: string[];
}

/**
 * A context and page shared by a file's tests: open it in beforeAll; it closes with the browser
 * (afterAll), whatever the tests did.
 */
export async function openSharedPage(browser: Browser, viewport = DESKTOP): Promise<TestPage> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/London' });
  context.setDefaultTimeout(PAGE_TIMEOUT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** A fresh context and page for the running test, closed when the test ends, passed or failed. */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<TestPage> {
  const opened = await openSharedPage(browser, viewport);
  onTestFinished(() => opened.context.close());
  return opened;
}

/** A context with Playwright's own defaults for the running test, closed when the test ends, passed or failed. */
export async function newTestContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  onTestFinished(() => context.close());
  return context;
}

/** Runs axe-core on the page as it is now and fails with the rule ids and elements. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const report = result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`,
  );
  expect(report, `axe violations on ${label}`).toEqual([]);
}
