/** POST /api/petitions/check-expired: the clients' periodic nudge (docs/rules.md#closure). Public and idempotent. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CheckExpiredSchema } from '../../src-shared/domain/schemas.ts';
import { PUBLIC } from '../http/route-access.ts';
import { PETITIONS_TAG } from '../petitions/route-schemas.ts';
import type { ClosureRunner } from './closure-scheduler.ts';

export function registerClosureRoutes(app: FastifyInstance, runner: ClosureRunner): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/petitions/check-expired',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'closeExpiredPetitions',
        tags: [PETITIONS_TAG],
        summary: 'Close expired petitions',
        description:
          'Closes open petitions older than three weeks with fewer than 10 signatures, and petitions whose term has ended. Returns how many this call closed; calling again closes nothing new.',
        response: { 200: CheckExpiredSchema },
      },
    },
    async () => ({ closed: await runner.run() }),
  );
}
