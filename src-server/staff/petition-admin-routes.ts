/** The administrator's petition overrides: assign to a term, set any status (docs/roles.md#permission-rules). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PetitionPatchBody, PetitionSchema, StatusBody } from '../../src-shared/domain/schemas.ts';
import { staffStatusEvent } from '../../src-shared/rules/feed.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import type { PetitionRow, PetitionUpdate } from '../db/schema.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { requireTerm } from '../terms/terms-repository.ts';
import { runPetitionChange } from './run-petition-change.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, OFFLINE_HEADERS_NOTE, PetitionParams } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { STATUS_OVERRIDERS, TERM_MANAGERS } from './staff-access.ts';

/** Closing records the time; any other status reopens and clears the closure. */
export function statusOverrideChanges(row: PetitionRow, status: PetitionStatus, now: Date): PetitionUpdate {
  const changes: PetitionUpdate = { status };
  if (status !== 'closed') Object.assign(changes, { closed_at: null, closure_reason: null });
  // Closing a closed petition again keeps the original closure.
  else if (row.status !== 'closed') Object.assign(changes, { closed_at: now.toISOString(), closure_reason: null });
  return changes;
}

export function registerPetitionAdminRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.patch(
    '/api/petitions/:id',
    {
      config: { access: TERM_MANAGERS },
      schema: {
        operationId: 'assignPetitionTerm',
        tags: [DOC_TAGS.petitions],
        summary: 'Assign a petition to a parliamentary term (administrator)',
        description: `termId null removes the assignment. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: PetitionPatchBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(TERM_MANAGERS);
      const termId = request.body.termId;
      return runPetitionChange(request, reply, deps, viewer, request.params.id, async (_row, trx, now) => {
        if (termId !== null) await requireTerm(trx, termId, now);
        return { changes: { term_id: termId }, action: AUDIT_ACTIONS.petitionAssignTerm };
      });
    },
  );

  typed.patch(
    '/api/petitions/:id/status',
    {
      config: { access: STATUS_OVERRIDERS },
      schema: {
        operationId: 'setPetitionStatus',
        tags: [DOC_TAGS.petitions],
        summary: 'Set a petition status (administrator)',
        description:
          `Any of the seven statuses. Closing records the time; any other status reopens and clears the closure. ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: StatusBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(STATUS_OVERRIDERS);
      const status = request.body.status;
      return runPetitionChange(request, reply, deps, viewer, request.params.id, (row, _trx, now) => ({
        changes: statusOverrideChanges(row, status, now),
        action: AUDIT_ACTIONS.petitionStatus,
        feedEvent: staffStatusEvent(row.status as PetitionStatus, status),
      }));
    },
  );
}
