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
import { PUBLIC } from '../http/route-contract.ts';
import { DOC_TAGS, problems } from '../staff/route-schemas.ts';
import type { LiveSubscriber } from './live-publisher.ts';

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
  'reach only the administrator until maintenance ends.',
].join(' ');

export function registerLiveEventsRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  context.live.setErrorReporter((error) => app.log.error({ err: error }, 'reading the live site state failed'));
  // Open streams would keep close() waiting forever: end them first.
  app.addHook('preClose', async () => context.live.close());

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
            description: 'An event stream that stays open: `site` and `count` events, and heartbeat comments.',
            content: { 'text/event-stream': { schema: z.unknown() } },
          },
          ...problems(400),
        },
      },
    },
    (request, reply) => {
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
        exempt: bypassesMaintenance(request.viewer?.user),
        write: (chunk) => {
          if (raw.writableEnded) return;
          // A reader that stopped reading would make us buffer for it forever: drop it, it reconnects.
          if (raw.writableLength > MAX_UNREAD_BYTES) raw.destroy();
          else raw.write(chunk);
        },
        end: () => raw.end(),
      };
      const unsubscribe = context.live.subscribe(subscriber);
      raw.on('close', unsubscribe);
    },
  );
}
