/** What is stored from a debate submission: one rule for the server and the console's offline view. */
import type { z } from 'zod';
import { DEFAULT_DEBATE_LOCATION } from '../domain/constants.ts';
import type { DebateBody, DebateInfo } from '../domain/schemas.ts';

/**
 * Location defaults to Westminster Hall, the Hansard link is kept only for a held debate, and the
 * reason only for not_debated and cancelled (our client sends the cancellation reason in
 * not_debated_reason) (docs/rules.md#debate-information).
 */
export function debateInfoFrom(body: z.output<typeof DebateBody>): DebateInfo {
  const reasonApplies = body.status === 'not_debated' || body.status === 'cancelled';
  return {
    status: body.status,
    date: body.date ? body.date : null,
    location: body.location?.trim() || DEFAULT_DEBATE_LOCATION,
    hansardLink: body.status === 'debated' ? body.hansard_url?.trim() || null : null,
    notDebatedReason: reasonApplies ? body.not_debated_reason?.trim() || null : null,
  };
}
