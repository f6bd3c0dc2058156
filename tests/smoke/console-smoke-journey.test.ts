/**
 * The Electron smoke test's journey (answer-petition.ts) on the same console build, in Chromium
 * through the console:browser host, since the Electron binary cannot run here: it keeps the script's
 * screens, labels and backend check honest between releases. The Electron launch itself runs in
 * the release workflow (docs/operations.md#the-electron-smoke-test).
 */
import { describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import { openPage } from '../support/chromium.ts';
import { signInFromConsole, type ConsoleInstance } from '../console-ui/harness.ts';
import { consoleJourney } from '../console-ui/journey.ts';
import { answerPetitionInConsole, responseOnBackend, responseOnBackendOnceAnswered, SMOKE_PERSONA, SMOKE_RESPONSE } from './answer-petition.ts';

let instance: ConsoleInstance;
let petition: { id: number; title: string };

const journey = consoleJourney(async ({ stack, openConsole }) => {
  petition = await seedPetition(stack.context, { title: 'Longer opening hours for the smoke-test library', signatures: 12, status: 'awaiting_government_response' });
  instance = await openConsole();
});

describe('the smoke journey in the console build', () => {
  it('signs a minister in through the loopback flow, answers a petition, and the backend shows the answer', async () => {
    expect((await responseOnBackend(journey.stack.baseUrl, petition.id)).governmentResponse).toBeNull();
    const { page } = await openPage(journey.browser);
    await page.goto(instance.openAddress());
    await signInFromConsole(journey.browser, page, instance, SMOKE_PERSONA);
    await answerPetitionInConsole(page, petition);
    expect(await responseOnBackendOnceAnswered(journey.stack.baseUrl, petition.id)).toMatchObject({ status: 'government_response', governmentResponse: SMOKE_RESPONSE });
  }, 120_000);
});
