/** The audit log, read by the administrator. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { AuditEntrySchema, ID_MESSAGES, idText, wholeNumberText } from '../../src-shared/domain/schemas.ts';
import { canReadAuditLog } from '../../src-shared/rules/permissions.ts';
import type { AppContext } from '../context.ts';
import { requirePermission } from '../http/guards.ts';
import { permitted } from '../http/route-contract.ts';
import { DOC_TAGS, problems } from '../staff/route-schemas.ts';
import { AUDIT_PAGE_MAX, listAudit } from './audit-log.ts';

const AuditQuery = z.strictObject({
  limit: wholeNumberText(1, AUDIT_PAGE_MAX).optional(),
  /** An entry id: the page holds entries older than it. */
  before: idText(ID_MESSAGES.entry).optional(),
});

export function registerAuditRoutes(app: FastifyInstance, context: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/audit-log',
    {
      config: { access: permitted(canReadAuditLog, ERRORS.adminOnly) },
      schema: {
        operationId: 'listAuditLog',
        tags: [DOC_TAGS.audit],
        summary: 'Staff actions, newest first (administrator)',
        description: 'Page back with `before` = the smallest id of the previous page.',
        querystring: AuditQuery,
        response: { 200: z.object({ items: z.array(AuditEntrySchema) }), ...problems(400, 401, 403, 503) },
      },
    },
    async (request) => {
      requirePermission(request, canReadAuditLog, ERRORS.adminOnly);
      return { items: await listAudit(context.db, request.query) };
    },
  );
}
