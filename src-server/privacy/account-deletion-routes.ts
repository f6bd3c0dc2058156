/**
 * Deleting a member's data (docs/privacy.md#deleting-your-data): the member from their account page,
 * or the administrator for a member who asked them. Both confirm by typing
 * ACCOUNT_DELETION_CONFIRMATION, checked here whatever the client did.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_DELETION_CONFIRMATION, isDeletionConfirmed, PRIVACY_ERRORS } from '../../src-shared/domain/privacy-constants.ts';
import { AccountDeletionBody, AccountDeletionResultSchema } from '../../src-shared/domain/privacy-schemas.ts';
import type { SessionTokenKeeper } from '../auth/session-tokens.ts';
import type { AppContext } from '../context.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { HttpError } from '../http/problem.ts';
import { SIGNED_IN } from '../http/route-access.ts';
import { problems } from '../http/route-contract.ts';
import { clearSessionCookie } from '../http/viewer.ts';
import { BanParams } from '../staff/route-schemas.ts';
import { ADMINISTRATOR } from '../staff/staff-access.ts';
import { SYSTEM_ACTOR } from '../terms/term-closures.ts';
import { deleteMemberData, revokeMemberTokens } from './account-deletion.ts';

export const ACCOUNT_DELETED = 'Your data has been deleted and you have been signed out everywhere.';
export const MEMBER_DATA_DELETED = "The member's data has been deleted and they have been signed out everywhere.";

const EFFECTS = [
  `The body must confirm with "${ACCOUNT_DELETION_CONFIRMATION}".`,
  'Ends every session of the member (live streams too) and revokes their Roblox authorization; removes their signatures from',
  'petitions that are not closed (counts and statuses follow) and anonymises those on closed petitions; keeps the petitions they',
  'created, shown as created by "Deleted member"; deletes their notification state, web push devices and presence. Recorded in',
  'the audit log without their id or name.',
].join(' ');

export function registerAccountDeletionRoutes(app: FastifyInstance, context: AppContext, keeper: SessionTokenKeeper): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/api/me/deletion',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'deleteMyData',
        tags: [API_TAGS.privacy.name],
        summary: 'Delete your data and sign out everywhere',
        description: EFFECTS,
        body: AccountDeletionBody,
        response: { 200: AccountDeletionResultSchema, ...problems(400, 401) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(SIGNED_IN);
      if (!isDeletionConfirmed(request.body.confirmation)) throw new HttpError(400, PRIVACY_ERRORS.deletionConfirmation);
      await revokeMemberTokens(context, keeper, viewer.user.id, request.log);
      const done = await deleteMemberData(context, { userId: viewer.user.id, actor: SYSTEM_ACTOR, requestedBy: 'member' });
      request.viewer = null;
      if (!viewer.viaBearer) clearSessionCookie(reply, context.cookie);
      // Deleted by a request of theirs on another tab a moment ago: the outcome is the same.
      return { message: ACCOUNT_DELETED, ...(done ?? { signaturesRemoved: 0, signaturesAnonymised: 0, petitionsKept: 0 }) };
    },
  );

  typed.post(
    '/api/users/:userId/deletion',
    {
      config: { access: ADMINISTRATOR },
      schema: {
        operationId: 'deleteMemberData',
        tags: [API_TAGS.privacy.name],
        summary: "Delete a member's data at their request (administrator)",
        description: EFFECTS,
        params: BanParams,
        body: AccountDeletionBody,
        response: { 200: AccountDeletionResultSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(ADMINISTRATOR);
      if (!isDeletionConfirmed(request.body.confirmation)) throw new HttpError(400, PRIVACY_ERRORS.deletionConfirmation);
      const { userId } = request.params;
      await revokeMemberTokens(context, keeper, userId, request.log);
      const done = await deleteMemberData(context, { userId, actor: viewer.user, requestedBy: 'administrator' });
      if (!done) throw new HttpError(404, PRIVACY_ERRORS.memberNotFound);
      return { message: MEMBER_DATA_DELETED, ...done };
    },
  );
}
