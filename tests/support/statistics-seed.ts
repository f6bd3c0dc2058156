/**
 * A term's petitions with known statistics (docs/console-team.md#statistics), for the statistics
 * screens of the console and the web: four petitions of the current term, three answered 1, 2 and
 * 6 days after reaching 10 signatures, one still waiting.
 */
import type { AppContext } from '../../src-server/context.ts';
import { addDays, londonDay, londonMidnight } from '../../src-shared/rules/dates.ts';
import { seedPetition } from './fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const KNOWN_STATISTICS = {
  petitionsCreated: 4,
  signatures: 46,
  /** Signatures on the UK day ten days ago (two petitions created at noon that day). */
  signaturesTenDaysAgo: 23,
  responseFigures: 'median 2.0 days, 90th percentile 6.0 days',
  responseCounts: '3 answered, 1 waiting now; target 14 days',
};

/** Noon (UK) `days` days before now: whole days, whatever the hour of the run. */
export function ukNoon(now: Date, daysAgo: number): Date {
  return new Date(londonMidnight(addDays(londonDay(now), -daysAgo)).getTime() + 12 * 3_600_000);
}

export async function seedKnownStatistics(context: AppContext): Promise<{ tenDaysAgo: string; today: string }> {
  const now = context.now();
  const at = (daysAgo: number) => new Date(ukNoon(now, daysAgo).getTime());
  const answered = [
    { created: 10, signatures: 12, answeredAfterDays: 1 },
    { created: 10, signatures: 11, answeredAfterDays: 2 },
    { created: 9, signatures: 13, answeredAfterDays: 6 },
  ];
  for (const [index, seed] of answered.entries()) {
    const threshold = at(9);
    const { id } = await seedPetition(context, {
      title: `Answered petition ${index + 1}`,
      createdAt: at(seed.created),
      signatures: seed.signatures,
      status: 'government_response',
      governmentResponse: 'The Government has answered.',
      responseThresholdReachedAt: threshold,
    });
    const addedAt = new Date(threshold.getTime() + seed.answeredAfterDays * DAY_MS).toISOString();
    const meta = { addedBy: 'Seed', addedByRole: 'Prime Minister', addedAt, editedBy: null, editedByRole: null, editedAt: null };
    await context.db.updateTable('petitions').set({ government_response_meta: JSON.stringify(meta) }).where('id', '=', id).execute();
  }
  await seedPetition(context, {
    title: 'Still waiting for an answer',
    createdAt: at(5),
    signatures: 10,
    status: 'awaiting_government_response',
    responseThresholdReachedAt: at(4),
  });
  return { tenDaysAgo: londonDay(at(10)), today: londonDay(now) };
}
