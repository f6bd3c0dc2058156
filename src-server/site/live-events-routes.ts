/**
 * GET /api/site-status/events: the live stream of site state (server-sent events). Under the site
 * status path, so it stays reachable during maintenance (maintenance.ts), where it reports
 * maintenance as a `site` event instead of answering 503.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIVE_EVENTS_PATH, LIVE_RECONNECT_FIRST_MS } from '../../src-shared/domain/constants.ts';
import { PetitionId } from '../../src-shared/domain/schemas.ts';
import { bypassesMaintenance } from '../../src-shared/rules/permissions.ts';
import type { AppContext } from '../context.ts';
import { clientKey } from '../http/client-address.ts';
import { PUBLIC } from '../http/route-access.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS } from '../staff/route-schemas.ts';
import { HEARTBEAT_FRAME, type LiveSubscriber } from './live-publisher.ts';
import { createStreamSlots } from './stream-slots.ts';

/** Far more than a stream ever holds for a reader that keeps up (frames are tens of bytes). */
const MAX_UNREAD_BYTES = 64 * 1024;

const LiveEventsQuery = z.strictObject({
  petition: PetitionId.optional().describe('A petition whose live signature count the page shows'),
});

const STREAM_DESCRIPTION = [
  'Server-sent events (`text/event-stream`). On connecting, and whenever it changes, a `site` event carries',
  '`{"maintenance": boolean, "inSession": boolean}`. With `?petition=<id>`, a `count` event carries',
  '`{"id", "signatures", "status"}` whenever that petition\'s count or status changes (an unknown id sends none).',
  'The server reads the state once a second for all streams together; a comment line every 15 s keeps proxies',
  'from closing an idle stream. Reachable during maintenance: everyone receives the `site` events, and counts',
  'reach only the administrator until maintenance ends. A signed-in stream also carries `unread` events,',
  '`{"unread": n}`: the member\'s unread notifications, on connecting and whenever the number changes.',
  'Streams are limited per client address and per signed-in user (429 with Retry-After past either) and in total',
  '(503); the server ends a stream after about an hour, or when its reader stops reading, and the client reconnects.',
].join(' ');

/** Streams end after their maximum age ± this share, so pages opened together do not all reconnect together. */
const MAX_AGE_JITTER = 0.1;

export function registerLiveEventsRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  context.live.setErrorReporter((error) => app.log.error({ err: error }, 'reading the live site state failed'));
  // Open streams would keep close() waiting forever: end them first.
  app.addHook('preClose', async () => {
    context.sessionStreams.close();
    context.live.close();
  });
  const { limits } = context.config;
  const slots = createStreamSlots({ perClient: limits.streamsPerClient, perUser: limits.streamsPerUser, total: context.capacity.streamsTotal });

  typed.get(
    LIVE_EVENTS_PATH,
    {
      // A HEAD would subscribe and never end: the stream has no headers-only form.
      exposeHeadRoute: false,
      config: { access: PUBLIC },
      schema: {
        tags: [DOC_TAGS.site],
        operationId: 'streamSiteEvents',
        summary: 'Live site state and signature count (server-sent events)',
        description: STREAM_DESCRIPTION,
        querystring: LiveEventsQuery,
        response: {
          200: {
            description: 'An event stream that stays open: `site`, `count` and (signed in) `unread` events, and heartbeat comments.',
            content: { 'text/event-stream': { schema: z.unknown() } },
          },
          ...problems(400, 429, 503),
        },
      },
    },
    (request, reply) => {
      // Counted before anything is written, so a refusal is an ordinary Problem Details answer.
      const release = slots.acquire({ client: clientKey(request.ip), user: request.viewer?.user.id ?? null });
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        // nginx and similar proxies would otherwise buffer the stream.
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'same-origin',
      });
      // The browser's own reconnect delay, for the rare case the client's backoff is not in charge.
      raw.write(`retry: ${LIVE_RECONNECT_FIRST_MS}\n\n`);
      const subscriber: LiveSubscriber = {
        petitionId: request.query.petition ?? null,
        exempt: bypassesMaintenance(request.viewerFor(PUBLIC)?.user),
        userId: request.viewerFor(PUBLIC)?.user.id ?? null,
        write: (chunk) => {
          if (raw.writableEnded) return;
          // A reader that stopped reading would make us buffer for it forever: drop it, it reconnects.
          // A heartbeat finding the frames before it still unsent means nothing was read for a whole
          // heartbeat interval (a dead peer's socket buffer fills and stays full): drop it too.
          if (raw.writableLength > MAX_UNREAD_BYTES || (chunk === HEARTBEAT_FRAME && raw.writableLength > 0)) raw.destroy();
          else raw.write(chunk);
        },
        end: () => raw.end(),
      };
      const unsubscribe = context.live.subscribe(subscriber);
      // A member signed out everywhere (their data deleted) loses this stream on whichever node holds it.
      const sessionHash = request.viewer?.session.id_hash;
      const forgetSession = sessionHash ? context.sessionStreams.add(sessionHash, () => raw.end()) : () => {};
      // However well it reads, a stream lets its socket go now and then: a peer that vanished without
      // closing is then forgotten, and reconnecting pages spread over the nodes again.
      const maxAge = limits.streamMaxAgeMs * (1 - MAX_AGE_JITTER + Math.random() * 2 * MAX_AGE_JITTER);
      const ageTimer = setTimeout(() => raw.end(), maxAge);
      ageTimer.unref();
      raw.on('close', () => {
        clearTimeout(ageTimer);
        unsubscribe();
        forgetSession();
        release();
      });
    },
  );
}
