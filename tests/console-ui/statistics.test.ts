/**
 * Journey: the administrator reads a term's statistics in the console (docs/console-team.md#statistics):
 * the known seeded figures, the charts' descriptions and their tables. axe-core checks the screen
 * with and without a table open.
 */
import { describe, expect, it } from 'vitest';
import { KNOWN_STATISTICS, seedKnownStatistics } from '../support/statistics-seed.ts';
import type { ConsoleInstance } from './harness.ts';
import { consoleJourney } from './journey.ts';
import { expectAccessible, expectOnPage } from '../support/chromium.ts';

let instance: ConsoleInstance;
let days: { tenDaysAgo: string; today: string };

const journey = consoleJourney(async ({ stack, openConsole }) => {
  days = await seedKnownStatistics(stack.context);
  instance = await openConsole();
});

describe('statistics in the console', () => {
  it('shows the term\'s known figures, charts described in words, and each chart as a table', async () => {
    const { page, errors } = await journey.signedInPage(instance, 'System Administrator');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('button', { name: 'Statistics', exact: true }).click();
    await expectOnPage(page.getByRole('heading', { level: 2, name: 'Statistics: Test Term' })).toBeVisible();
    const figures = page.locator('.statistics__figures');
    await expectOnPage(figures).toContainText(`Petitions created${KNOWN_STATISTICS.petitionsCreated}`);
    await expectOnPage(figures).toContainText(`Signatures${KNOWN_STATISTICS.signatures}`);
    await expectOnPage(figures).toContainText(KNOWN_STATISTICS.responseFigures);
    await expectOnPage(figures).toContainText(KNOWN_STATISTICS.responseCounts);
    await expectOnPage(figures).toContainText('Time to a debate outcomenone answered yet');
    await expectOnPage(page.getByRole('img', { name: new RegExp(`^Bar chart: ${KNOWN_STATISTICS.signatures} signatures from`) })).toBeVisible();
    await expectOnPage(page.getByRole('img', { name: /on the last day 1 awaited a response \(0 overdue\) and 0 a debate/ })).toBeVisible();
    await expectAccessible(page, 'statistics screen');

    const signatures = page.getByRole('region', { name: 'Signatures per day', exact: true });
    await signatures.getByText('Show the numbers as a table').click();
    await expectOnPage(signatures.getByRole('row', { name: `${days.tenDaysAgo} ${KNOWN_STATISTICS.signaturesTenDaysAgo}` })).toBeVisible();
    const backlog = page.getByRole('region', { name: 'Backlog and overdue petitions at the end of each day', exact: true });
    await backlog.getByText('Show the numbers as a table').click();
    await expectOnPage(backlog.getByRole('row', { name: `${days.today} 1 0 0 0` })).toBeVisible();
    await expectAccessible(page, 'statistics with tables open');
    expect(errors).toEqual([]);
  }, 150_000);
});
