/** One petition: its page data, its signers, its live count and its hourly signature chart. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SIGNERS_PREVIEW_COUNT, PAGE_SIZE_MAX } from '../../src-shared/domain/constants.ts';
import {
  HourlySignaturesSchema,
  PetitionCountSchema,
  PetitionDetailSchema,
  SignersPageSchema,
  SignersQuery,
  type Petition,
  type PetitionCount,
  type PublicRejection,
} from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { sendJsonText } from '../http/json-text.ts';
import { PUBLIC } from '../http/route-access.ts';
import { hourlySignatures } from './hourly-signatures.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { canSign } from '../../src-shared/rules/permissions.ts';
import type { PetitionRow } from '../db/schema.ts';
import type { Viewer } from '../http/viewer.ts';
import { accountAgeRefusalFor } from '../integrity/account-age-gate.ts';
import { assertViewable, findPetitionCount, hasInvalidatedSignature, hasSigned, listSigners, requireCachedPetition, requirePetition } from './petition-reads.ts';
import { hasReported } from '../moderation/report-reads.ts';
import { rejectionOf } from '../moderation/rejection-reasons.ts';
import { toPetition } from './petition-record.ts';
import { problems } from '../http/route-contract.ts';
import { PETITIONS_TAG, PetitionIdParams } from './route-schemas.ts';

/**
 * The petition page's reply, as JSON text. The page's row brings its first signers as JSON already in
 * the API's shape (PetitionPageRow: stored on SQLite, built by PostgreSQL as it reads them), so they
 * are copied in as they are: the busiest read never parses and re-serialises them.
 */
function petitionDetailJson(
  petition: Petition,
  firstSignersJson: string,
  viewer: { signed: boolean; reported: boolean; signingRefusal: string | null },
  rejection: PublicRejection | null,
): string {
  const extra = rejection ? `,"rejection":${JSON.stringify(rejection)}` : '';
  return `${JSON.stringify(petition).slice(0, -1)},"signers":${firstSignersJson},"signed_by_viewer":${viewer.signed},"viewer_signing_refusal":${JSON.stringify(viewer.signingRefusal)},"reported_by_viewer":${viewer.reported}${extra}}`;
}

/**
 * What the sign call would refuse this viewer with, checked in the same order: the account's age
 * first, then an invalidated signature. Only for signers who have not signed an open petition.
 */
async function signingRefusal(context: AppContext, viewer: Viewer | null, row: PetitionRow, signedByViewer: boolean): Promise<string | null> {
  if (!viewer || signedByViewer || row.status === 'closed' || !canSign(viewer.user)) return null;
  const tooYoung = accountAgeRefusalFor(context, viewer.userRow, 'sign');
  if (tooYoung) return tooYoung;
  return (await hasInvalidatedSignature(context.db, row.id, viewer.user.id)) ? ERRORS.signatureInvalidated : null;
}

/** The live counter is polled by every open page; a few seconds of staleness lets caches absorb it. */
const COUNT_CACHE_CONTROL = 'public, max-age=5, stale-while-revalidate=10';

export function registerPetitionDetailRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/petitions/:id',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getPetition',
        tags: [PETITIONS_TAG],
        summary: 'Get a petition',
        description:
          `The petition, its first ${SIGNERS_PREVIEW_COUNT} signers (oldest first), whether the signed-in viewer has signed it and, if they may not sign it now, why, and whether they reported it. ` +
          'The ETag is the petition version that staff edits send back in If-Match. A hidden or rejected petition is shown only to its ' +
          'creator and to moderators (with `moderation`, and `rejection` when rejected); others get 404, or 410 with `rejection` (the ' +
          'reason the public may read) when it was rejected for a reason that is not hidden.',
        params: PetitionIdParams,
        response: { 200: PetitionDetailSchema, ...problems(400, 404, 410) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const row = await requireCachedPetition(context, id);
      const viewer = request.viewerFor(PUBLIC);
      await assertViewable(context.db, row, viewer?.user, { tombstone: true });
      const signed = viewer ? await hasSigned(context.db, id, viewer.user.id) : false;
      const refusal = await signingRefusal(context, viewer, row, signed);
      const reported = viewer ? await hasReported(context.db, id, viewer.user.id) : false;
      const rejection = await rejectionOf(context.db, row);
      // The reply is no-store, so the ETag is never used to revalidate a cached copy: it is the
      // precondition token for staff writes, and changes only when staff change the petition.
      reply.header('etag', `"${row.version}"`);
      const petition = toPetition(context.signatureCounts.withLive(row));
      const shownRejection = rejection ? { code: rejection.code, title: rejection.title, text: rejection.text, at: rejection.at } : null;
      return sendJsonText(reply, petitionDetailJson(petition, row.first_signers, { signed, reported, signingRefusal: refusal }, shownRejection));
    },
  );

  typed.get(
    '/api/petitions/:id/signers',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'listPetitionSigners',
        tags: [PETITIONS_TAG],
        summary: 'List the signers of a petition',
        description: `Signers oldest first, ${PAGE_SIZE_MAX} at most per call; total is the signature count.`,
        params: PetitionIdParams,
        querystring: SignersQuery,
        response: { 200: SignersPageSchema, ...problems(400, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await requirePetition(context.db, id);
      await assertViewable(context.db, row, request.viewerFor(PUBLIC)?.user);
      const items = await listSigners(context.db, id, request.query.offset ?? 0, request.query.limit ?? SIGNERS_PREVIEW_COUNT);
      return { items, total: context.signatureCounts.live(row.id, row.signature_count) };
    },
  );

  typed.get(
    '/api/petitions/:id/count',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getPetitionCount',
        tags: [PETITIONS_TAG],
        summary: 'Get the live signature count',
        description: 'A small, publicly cacheable (5 s) reply for the live counter.',
        params: PetitionIdParams,
        response: { 200: PetitionCountSchema, ...problems(400, 404) },
      },
    },
    async (request, reply): Promise<PetitionCount> => {
      const count = await findPetitionCount(context, request.params.id);
      reply.header('cache-control', COUNT_CACHE_CONTROL);
      return count;
    },
  );

  typed.get(
    '/api/petitions/:id/signatures-by-hour',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getSignaturesByHour',
        tags: [PETITIONS_TAG],
        summary: 'Signatures per hour',
        description: 'Hours (UTC, oldest first) in which the petition received signatures, with their counts. Hours without signatures are left out.',
        params: PetitionIdParams,
        response: { 200: HourlySignaturesSchema, ...problems(400, 404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      await assertViewable(context.db, await requirePetition(context.db, id), request.viewerFor(PUBLIC)?.user);
      return { points: await hourlySignatures(context.db, id) };
    },
  );
}
