/**
 * Browser helpers for the web journeys: one Debian Chromium per test file, a fresh context per
 * test, an axe-core check that fails with a readable list, and keyboard helpers.
 */
import { chromium } from 'playwright';
import type { Browser, BrowserContext, Page } from 'playwright';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';

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

export async function openPage(browser: Browser, viewport = DESKTOP): Promise<TestPage> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/London' });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Runs axe-core on the page as it is now and fails with the rule ids and elements. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const report = result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`,
  );
  expect(report, `axe violations on ${label}`).toEqual([]);
}

/** The page is no wider than the window (responsive down to a 360 px phone). */
export async function expectNoHorizontalScroll(page: Page, label: string): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(widths.scroll, `horizontal overflow on ${label}`).toBeLessThanOrEqual(widths.view);
}

/** Text of the focused element (its accessible-ish name: aria-label, text or value). */
export async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    return (el.getAttribute('aria-label') ?? el.innerText ?? (el as HTMLInputElement).value ?? '').trim();
  });
}

/** Presses Tab until the focused element matches, as a keyboard user would; fails after `max` presses. */
export async function tabUntil(
  page: Page,
  matches: (info: { tag: string; name: string; id: string }) => boolean,
  max = 80,
): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return {
        tag: el?.tagName.toLowerCase() ?? '',
        name: (el?.getAttribute('aria-label') ?? el?.innerText ?? '').trim(),
        id: el?.id ?? '',
      };
    });
    if (matches(info)) return;
  }
  throw new Error(`Tab did not reach the wanted element within ${max} presses`);
}

/** A call to the API with the page's session cookie, as the web app makes it (CSRF header included). */
export async function apiPost(page: Page, baseUrl: string, path: string, data: unknown) {
  return page.request.post(`${baseUrl}${path}`, {
    data,
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
  });
}

export const VALID_DESCRIPTION =
  'The capital needs a bigger public library with long opening hours, study rooms and free events for all citizens.';
