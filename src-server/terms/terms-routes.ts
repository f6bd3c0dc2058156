/** Parliamentary terms: anyone may read them; only the administrator changes them (docs/rules.md#terms). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { MessageSchema, TermBody, TermChangePreviewSchema, TermPatchBody, TermSchema } from '../../src-shared/domain/schemas.ts';
import type { Term, TermPatchRequest } from '../../src-shared/domain/schemas.ts';
import { termStatus } from '../../src-shared/rules/terms.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { PUBLIC } from '../http/route-access.ts';
import { HttpError } from '../http/problem.ts';
import { assertCalendarDates } from '../staff/calendar-date.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS, IDEMPOTENCY_NOTE, TermParams } from '../staff/route-schemas.ts';
import type { Db } from '../db/schema.ts';
import { TERM_MANAGERS } from '../staff/staff-access.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { applyTermStatus, countPetitionsToClose, countPetitionsToReopen, countTermPetitions } from './term-closures.ts';
import { deleteTerm, insertTerm, listTerms, requireTerm, updateTerm, type TermValues } from './terms-repository.ts';

export const TERM_DELETED = 'Parliamentary term deleted';

function mergeTermPatch(before: Term, patch: TermPatchRequest): TermValues {
  const merged: TermValues = {
    name: patch.name ?? before.name,
    startDate: patch.startDate ?? before.startDate,
    endDate: patch.endDate ?? before.endDate,
    status: patch.status === undefined ? before.statusOverride : patch.status,
  };
  if (merged.endDate < merged.startDate) throw new HttpError(400, VALIDATION.termDatesOrder);
  return merged;
}

/** Two terms of one name cannot be told apart in the lists and filters, so names are unique (any case). */
async function assertNameFree(db: Db, name: string, exceptId: number | null, now: Date): Promise<void> {
  const wanted = name.trim().toLocaleLowerCase('en-GB');
  const clash = (await listTerms(db, now)).find((term) => term.id !== exceptId && term.name.trim().toLocaleLowerCase('en-GB') === wanted);
  if (clash) throw new HttpError(409, VALIDATION.termNameTaken);
}

/**
 * Every check a term change must pass, for the change itself and for its preview alike (one code
 * path, so the preview can never accept what the change refuses): real calendar days (400), start
 * on or before end (400), a name no other term has (409). Returns the term's values after the change.
 */
async function checkedTermChange(db: Db, before: Term, patch: TermPatchRequest, now: Date): Promise<TermValues> {
  assertCalendarDates(patch.startDate, patch.endDate);
  const merged = mergeTermPatch(before, patch);
  if (patch.name !== undefined) await assertNameFree(db, merged.name, before.id, now);
  return merged;
}

export function registerTermRoutes(app: FastifyInstance, { context }: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/parliamentary-terms',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'listTerms',
        tags: [DOC_TAGS.terms],
        summary: 'List parliamentary terms, by start date',
        description:
          '`status` is the effective status (upcoming, current or completed) today in the UK; `statusOverride` is the stored status that decides it, or null when the dates decide.',
        response: { 200: z.array(TermSchema), ...problems(503) },
      },
    },
    async () => listTerms(context.db, context.now()),
  );

  typed.post(
    '/api/parliamentary-terms',
    {
      config: { access: TERM_MANAGERS },
      schema: {
        operationId: 'createTerm',
        tags: [DOC_TAGS.terms],
        summary: 'Create a parliamentary term (administrator)',
        description: `New terms are stored as upcoming unless the body gives a status (null: follow the dates). Names are unique, ignoring case (409). ${IDEMPOTENCY_NOTE}`,
        body: TermBody,
        response: { 201: TermSchema, ...problems(400, 401, 403, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(TERM_MANAGERS);
      const body = request.body;
      assertCalendarDates(body.startDate, body.endDate);
      const values: TermValues = {
        name: body.name.trim(),
        startDate: body.startDate,
        endDate: body.endDate,
        // New terms are stored as upcoming (docs/rules.md#terms).
        status: body.status === undefined ? 'upcoming' : body.status,
      };
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        await assertNameFree(trx, values.name, null, now);
        const term = await insertTerm(trx, values, now);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.termCreate,
          targetType: 'term',
          targetId: term.id,
          before: null,
          after: term,
          at: now,
          madeAt,
        });
        return { statusCode: 201, body: term };
      });
    },
  );

  typed.patch(
    '/api/parliamentary-terms/:id',
    {
      config: { access: TERM_MANAGERS },
      schema: {
        operationId: 'updateTerm',
        tags: [DOC_TAGS.terms],
        summary: 'Change a parliamentary term (administrator)',
        description:
          'Only the fields sent change; the start must stay on or before the end; names are unique, ignoring case (409). ' +
          "A change that leaves the term completed closes its open petitions at once (one audited `term.close_petitions`); " +
          'one that leaves it current reopens the petitions its completion closed, if nothing changed them since ' +
          `(\`term.reopen_petitions\`). Ask \`POST /api/parliamentary-terms/{id}/preview\` first to tell the user. ${IDEMPOTENCY_NOTE}`,
        params: TermParams,
        body: TermPatchBody,
        response: { 200: TermSchema, ...problems(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(TERM_MANAGERS);
      const patch = request.body;
      // Reopening gives petitions their automatic status from their counts: write pending counts first.
      if (patch.status !== undefined || patch.startDate !== undefined || patch.endDate !== undefined) await context.signatureCounts.settle();
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const before = await requireTerm(trx, request.params.id, now);
        const after = await updateTerm(trx, before.id, await checkedTermChange(trx, before, patch, now), now);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.termUpdate,
          targetType: 'term',
          targetId: after.id,
          before,
          after,
          at: now,
          madeAt,
        });
        await applyTermStatus(trx, after, termStatus(after, now), now, viewer.user, madeAt);
        return { body: after };
      });
    },
  );

  typed.post(
    '/api/parliamentary-terms/:id/preview',
    {
      config: { access: TERM_MANAGERS },
      schema: {
        operationId: 'previewTermChange',
        tags: [DOC_TAGS.terms],
        summary: 'What a term change would do to its petitions (administrator; changes nothing)',
        description:
          'Takes the body of `PATCH /api/parliamentary-terms/{id}` and answers, without changing anything, the status the term ' +
          'would have and how many petitions the change would close or reopen; `petitionsInTerm` is how many would be left ' +
          'without a term if it were deleted (send `{}`). It runs the same checks as the change: a day that does not exist or ' +
          'an end before the start is 400, a name another term has is 409.',
        params: TermParams,
        body: TermPatchBody,
        response: { 200: TermChangePreviewSchema, ...problems(400, 404, 409) },
      },
    },
    async (request) => {
      const now = context.now();
      const before = await requireTerm(context.db, request.params.id, now);
      const merged = await checkedTermChange(context.db, before, request.body, now);
      const status = termStatus({ startDate: merged.startDate, endDate: merged.endDate, statusOverride: merged.status }, now);
      return {
        status,
        petitionsToClose: status === 'completed' ? await countPetitionsToClose(context.db, before.id) : 0,
        petitionsToReopen: status === 'current' ? await countPetitionsToReopen(context.db, before.id) : 0,
        petitionsInTerm: await countTermPetitions(context.db, before.id),
      };
    },
  );

  typed.delete(
    '/api/parliamentary-terms/:id',
    {
      config: { access: TERM_MANAGERS },
      schema: {
        operationId: 'deleteTerm',
        tags: [DOC_TAGS.terms],
        summary: 'Delete a parliamentary term (administrator)',
        description: `Its petitions stay, with no term. ${IDEMPOTENCY_NOTE}`,
        params: TermParams,
        response: { 200: MessageSchema, ...problems(400, 401, 403, 404, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(TERM_MANAGERS);
      return runStaffMutation(request, reply, context, viewer, async (trx, now, madeAt) => {
        const term = await requireTerm(trx, request.params.id, now);
        const petitionsUnassigned = await deleteTerm(trx, term.id, now);
        await writeAudit(trx, {
          actor: viewer.user,
          action: AUDIT_ACTIONS.termDelete,
          targetType: 'term',
          targetId: term.id,
          before: { ...term, petitionsUnassigned },
          after: null,
          at: now,
          madeAt,
        });
        return { body: { message: TERM_DELETED } };
      });
    },
  );
}
