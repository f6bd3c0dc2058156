/**
 * Working as a team (docs/console-team.md), for staff who see the government panel: presence and
 * claims, the queue summary, and the staff event stream that carries both live.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { STAFF_EVENTS_PATH, STAFF_STREAM_MAX_MS, type PresenceActivity } from '../../src-shared/domain/team-constants.ts';
import {
  PresenceClientParams,
  PresenceListSchema,
  QueueSummarySchema,
  SetPresenceBody,
  type PresenceList,
  type QueueSummary,
} from '../../src-shared/domain/team-schemas.ts';
import type { User } from '../../src-shared/domain/schemas.ts';
import { canManageDebate, canManageGovernmentResponse } from '../../src-shared/rules/permissions.ts';
import { LIVE_RECONNECT_FIRST_MS } from '../../src-shared/domain/constants.ts';
import { HttpError } from '../http/problem.ts';
import { problems } from '../http/route-contract.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { DOC_TAGS } from '../staff/route-schemas.ts';
import { readQueueSummary } from '../staff/queue-summary.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { PANEL_STAFF } from '../staff/staff-access.ts';
import { clearPresence, readPresence, writePresence } from './presence-store.ts';
import type { StaffSubscriber } from './staff-event-publisher.ts';

export const PRESENCE_PATH = '/api/staff/presence';
export const QUEUE_SUMMARY_PATH = '/api/staff/queue-summary';

/** Far more than a stream ever holds for a reader that keeps up. */
const MAX_UNREAD_BYTES = 256 * 1024;

/** A claim says what the person is writing: only someone who may write it can claim it. */
function assertMayClaim(user: User, activity: PresenceActivity): void {
  if (activity === 'responding' && !canManageGovernmentResponse(user)) throw new HttpError(403, ERRORS.responseForbidden);
  if (activity === 'debating' && !canManageDebate(user)) throw new HttpError(403, ERRORS.debateForbidden);
}

const PRESENCE_DESCRIPTION =
  'Everyone on staff on a petition now, one entry per open console or tab, oldest arrival first. `responding` and `debating` ' +
  'are claims (someone is writing an answer) and last until `claimedUntil`; a lapsed claim reads `viewing`. Presence ends ' +
  'by itself a minute after the client stops sending it.';

const STREAM_DESCRIPTION = [
  'Server-sent events (`text/event-stream`) for staff. On connecting, and whenever it changes, a `presence` event carries',
  'the presence list (as GET /api/staff/presence) and a `queues` event the queue summary (as GET /api/staff/queue-summary).',
  'Presence is read once a second and the queue summary every five seconds, for all streams of a server together;',
  `a comment line every 15 s keeps proxies from closing an idle stream. The stream ends after ${STAFF_STREAM_MAX_MS / 60_000} minutes`,
  '(reconnect: access is checked again) and when the server stops.',
].join(' ');

export function registerPresenceRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { context } = deps;
  const presenceList = async (): Promise<PresenceList> => ({
    entries: await readPresence(context.db, context.now(), context.config.adminUserId),
  });
  context.staffEvents.setErrorReporter((error) => app.log.error({ err: error }, 'reading the staff events failed'));
  app.addHook('preClose', async () => context.staffEvents.close());

  typed.get(
    PRESENCE_PATH,
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'getStaffPresence',
        tags: [DOC_TAGS.team],
        summary: 'Who on staff is on which petition now (staff)',
        description: PRESENCE_DESCRIPTION,
        response: { 200: PresenceListSchema, ...problems(401, 403, 503) },
      },
    },
    () => presenceList(),
  );

  typed.put(
    `${PRESENCE_PATH}/:clientId`,
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'setStaffPresence',
        tags: [DOC_TAGS.team],
        summary: 'Say where this console or tab is: viewing a petition, or writing its response or debate (staff)',
        description:
          '`clientId` is a random id the client chose for itself (one per console or tab). Send it again every 20 s while on the ' +
          'petition. Arriving (or changing activity) with `responding` or `debating` claims the petition for five minutes; ' +
          '`renewClaim: true` (sent while typing) renews the claim, a plain repeat does not. A claim never blocks anyone. ' +
          'Claiming needs the right to write that answer (403). Answers the presence list.',
        params: PresenceClientParams,
        body: SetPresenceBody,
        response: { 200: PresenceListSchema, ...problems(400, 401, 403, 404, 503) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(PANEL_STAFF);
      const { petitionId, activity, renewClaim } = request.body;
      assertMayClaim(viewer.user, activity);
      await context.db.transaction().execute(async (trx) => {
        await requirePetition(trx, petitionId);
        await writePresence(trx, { userId: viewer.user.id, clientId: request.params.clientId, petitionId, activity, renewClaim }, context.now());
      });
      void context.staffEvents.poke();
      return presenceList();
    },
  );

  typed.delete(
    `${PRESENCE_PATH}/:clientId`,
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'clearStaffPresence',
        tags: [DOC_TAGS.team],
        summary: 'This console or tab left its petition (releases its claim) (staff)',
        description: 'Nothing to remove is not an error. Answers the presence list.',
        params: PresenceClientParams,
        response: { 200: PresenceListSchema, ...problems(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(PANEL_STAFF);
      await clearPresence(context.db, viewer.user.id, request.params.clientId);
      void context.staffEvents.poke();
      return presenceList();
    },
  );

  typed.get(
    QUEUE_SUMMARY_PATH,
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'getQueueSummary',
        tags: [DOC_TAGS.team],
        summary: 'The staff queues: their targets, sizes, and how many are due soon or overdue (staff)',
        description:
          'Waiting time counts from when the petition reached its threshold (10 signatures for a response, 20 for a debate). ' +
          'Overdue: waited longer than `targetDays`; due soon: within the last `dueSoonDays` before it.',
        response: { 200: QueueSummarySchema, ...problems(401, 403, 503) },
      },
    },
    (): Promise<QueueSummary> => readQueueSummary(context.db, context.dialect, context.config.queueTargets, context.now()),
  );

  typed.get(
    STAFF_EVENTS_PATH,
    {
      // A HEAD would subscribe and never end: the stream has no headers-only form.
      exposeHeadRoute: false,
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'streamStaffEvents',
        tags: [DOC_TAGS.team],
        summary: 'Live presence and queue summary (server-sent events, staff)',
        description: STREAM_DESCRIPTION,
        response: {
          200: {
            description: 'An event stream: `presence` and `queues` events, and heartbeat comments.',
            content: { 'text/event-stream': { schema: z.unknown() } },
          },
          ...problems(401, 403, 503),
        },
      },
    },
    (request, reply) => {
      const viewer = request.viewerFor(PANEL_STAFF);
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      });
      raw.write(`retry: ${LIVE_RECONNECT_FIRST_MS}\n\n`);
      const subscriber: StaffSubscriber = {
        write: (chunk) => {
          if (raw.writableEnded) return;
          if (raw.writableLength > MAX_UNREAD_BYTES) raw.destroy();
          else raw.write(chunk);
        },
        end: () => raw.end(),
      };
      const unsubscribe = context.staffEvents.subscribe(subscriber);
      // Signed out everywhere (docs/privacy.md#deleting-your-data) ends it on whichever node holds it.
      const forgetSession = context.sessionStreams.add(viewer.session.id_hash, () => raw.end());
      // Access was checked when the stream opened: ending it now and then makes the client check in again.
      const expiry = setTimeout(() => raw.end(), STAFF_STREAM_MAX_MS);
      expiry.unref();
      raw.on('close', () => {
        clearTimeout(expiry);
        unsubscribe();
        forgetSession();
      });
    },
  );
}
