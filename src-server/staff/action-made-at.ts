/**
 * `X-Action-Made-At` on a staff write: when the staff member made the action, if that was before it
 * reached the server (the console's outbox sends it). Checked with the shared rule
 * (src-shared/console/action-made-at.ts): a bad value is refused with 400 before anything runs.
 */
import type { FastifyRequest } from 'fastify';
import { readMadeAt } from '../../src-shared/console/action-made-at.ts';
import { ACTION_MADE_AT_HEADER } from '../../src-shared/domain/constants.ts';
import { HttpError } from '../http/problem.ts';

/** The made-at time the request carries, or null without the header. */
export function actionMadeAt(request: FastifyRequest, now: Date): Date | null {
  const value = request.headers[ACTION_MADE_AT_HEADER];
  if (value === undefined) return null;
  if (Array.isArray(value)) throw new HttpError(400, 'Send X-Action-Made-At once');
  const read = readMadeAt(value, now.getTime());
  if ('problem' in read) throw new HttpError(400, read.problem);
  return read.madeAt;
}
