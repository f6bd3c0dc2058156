/**
 * Helpers of the web journeys: layout, keyboard and API calls from the page. Chromium itself, pages
 * and assertions on them are in tests/support/chromium.ts.
 */
import type { Page } from 'playwright';
import { expect } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';

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
