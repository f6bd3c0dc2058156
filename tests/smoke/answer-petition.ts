/**
 * The smoke test's journey on a console page, shared by the Electron run (console-smoke.ts) and its
 * check in Chromium through the console:browser host (console-smoke-journey.test.ts): a signed-in
 * minister opens a petition from the response queue, answers it, waits until the outbox has sent the
 * answer, and the backend shows it.
 */
import type { Page } from 'playwright';

export const SMOKE_RESPONSE = 'The Government will extend the opening hours from January (smoke test).';
export const SMOKE_PERSONA = 'Cabinet Minister';

export async function answerPetitionInConsole(page: Page, petition: { title: string }, text = SMOKE_RESPONSE): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Awaiting government response' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: new RegExp(petition.title) }).click();
  await page.getByRole('heading', { level: 2, name: 'Add Government Response' }).waitFor();
  await page.getByRole('textbox', { name: 'Government response' }).fill(text);
  await page.getByRole('combobox', { name: 'Your government role' }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Submit Response' }).click();
  // Queued in the outbox (its toast), then sent: nothing left queued or sending, nothing needing attention.
  // Without the toast first, a badge not yet told of the new action read "0 queued" at once.
  await page.getByRole('status').getByText(/^Queued: /).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => /^0 queued · 0 sending/.test(document.querySelector('.console-badge')?.textContent ?? ''), undefined, {
    timeout: 30_000,
  });
}

/**
 * What the public API says about the petition once it shows `text` as the response, or after
 * `timeoutMs` whatever it shows: the outbox's badge is updated by a message of its own, so the
 * backend, not the badge, decides.
 */
export async function responseOnBackendOnceAnswered(baseUrl: string, petitionId: number, text = SMOKE_RESPONSE, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const shown = await responseOnBackend(baseUrl, petitionId);
    if (shown.governmentResponse === text || Date.now() > deadline) return shown;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What the public API says about the petition now. */
export async function responseOnBackend(baseUrl: string, petitionId: number): Promise<{ status: string; governmentResponse: string | null }> {
  const response = await fetch(`${baseUrl}/api/petitions/${petitionId}`);
  if (!response.ok) throw new Error(`the backend answered ${response.status} for petition ${petitionId}`);
  return (await response.json()) as { status: string; governmentResponse: string | null };
}
