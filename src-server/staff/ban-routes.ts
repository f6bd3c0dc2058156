/** Bans, for the administrator only (docs/rules.md#bans). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { BanBody, BanSchema, BanStatsSchema, MessageSchema } from '../../src-shared/domain/schemas.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { HttpError } from '../http/problem.ts';
import { banStats, findBan, listBans, removeBan, saveBan } from '../bans/bans-repository.ts';
import { problems } from '../http/route-contract.ts';
import { BanParams, DOC_TAGS, IDEMPOTENCY_NOTE } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { BAN_MANAGERS } from './staff-access.ts';
import { runStaffMutation } from './staff-mutation.ts';

export const USER_UNBANNED = 'User unbanned';
export const ADMINISTRATOR_NOT_BANNABLE = 'The System Administrator cannot be banned';

export function registerBanRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/ban-stats',
    {
      config: { access: BAN_MANAGERS },
      schema: {
        operationId: 'getBanStats',
        tags: [DOC_TAGS.bans],
        summary: 'Ban statistics (administrator)',
        response: { 200: BanStatsSchema, ...problems(401, 403, 503) },
      },
    },
    async () => banStats(context.db, context.now()),
  );

  typed.get(
    '/api/bans',
    {
      config: { access: BAN_MANAGERS },
      schema: {
        operationId: 'listBans',
        tags: [DOC_TAGS.bans],
        summary: 'List bans, newest first (administrator)',
        response: { 200: z.array(BanSchema), ...problems(401, 403, 503) },
      },
    },
    async () => listBans(context.db),
  );

  typed.put(
    '/api/bans/:userId',
    {
      config: { access: BAN_MANAGERS },
      schema: {
        operationId: 'banUser',
        tags: [DOC_TAGS.bans],
        summary: 'Ban a user from creating petitions, or change the reason (administrator)',
        description: `201 for a new ban, 200 when the user was already banned. ${IDEMPOTENCY_NOTE}`,
        params: BanParams,
        body: BanBody,
        response: { 200: BanSchema, 201: BanSchema, ...problems(400, 401, 403, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(BAN_MANAGERS);
      const userId = request.params.userId;
      if (userId === context.config.adminUserId) throw new HttpError(400, ADMINISTRATOR_NOT_BANNABLE);
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const before = await findBan(trx, userId);
        const after = await saveBan(trx, { userId, reason: request.body.reason, bannedBy: viewer.user.id, now });
        await writeAudit(trx, {
          actor: viewer.user,
          action: before ? AUDIT_ACTIONS.banUpdate : AUDIT_ACTIONS.ban,
          targetType: 'ban',
          targetId: userId,
          before,
          after,
          at: now,
          madeAt,
        });
        return { statusCode: before ? 200 : 201, body: after };
      });
    },
  );

  typed.delete(
    '/api/bans/:userId',
    {
      config: { access: BAN_MANAGERS },
      schema: {
        operationId: 'unbanUser',
        tags: [DOC_TAGS.bans],
        summary: 'Lift a ban (administrator)',
        description: IDEMPOTENCY_NOTE,
        params: BanParams,
        response: { 200: MessageSchema, ...problems(400, 401, 403, 404, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(BAN_MANAGERS);
      const userId = request.params.userId;
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const before = await findBan(trx, userId);
        if (!before || !(await removeBan(trx, userId))) throw new HttpError(404, ERRORS.notBanned);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.unban,
          targetType: 'ban',
          targetId: userId,
          before,
          after: null,
          at: now,
          madeAt,
        });
        return { body: { message: USER_UNBANNED } };
      });
    },
  );
}
