/**
 * GET /api/privacy/retention: the retention periods this site runs with (docs/privacy.md#signer-retention),
 * so the privacy policy and the account page state the operator's settings, not the defaults.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RetentionSchema } from '../../src-shared/domain/privacy-schemas.ts';
import type { AppContext } from '../context.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { PUBLIC } from '../http/route-access.ts';

/** Settings change only with a restart; a few minutes of caching spares the call on every visit to the policy. */
const RETENTION_MAX_AGE_S = 300;

export function registerRetentionRoutes(app: FastifyInstance, context: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/privacy/retention',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getRetention',
        tags: [API_TAGS.privacy.name],
        summary: 'How long this site keeps signers and notifications',
        description:
          'The months after a petition closes before its signers are anonymised, and the months after a notification before it is deleted, as this site is configured.',
        response: { 200: RetentionSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', `public, max-age=${RETENTION_MAX_AGE_S}`);
      return { signerMonths: context.config.signerRetentionMonths, notificationMonths: context.config.notificationRetentionMonths };
    },
  );
}
