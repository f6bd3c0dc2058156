/**
 * "What changed in the queues since": the console keeps its queues (awaiting a government
 * response, awaiting a debate) current with a cheap read of the petitions changed after its cursor,
 * instead of reloading whole lists. Queue membership comes from the shared classification rules.
 *
 * The cursor is the server's position in (updated_at, id) order of petitions, plus the last audit
 * entry seen (deletions leave no petition row behind, so they are read from the audit log).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ExpressionBuilder } from 'kysely';
import { QUEUE_CHANGES_DEFAULT_LIMIT, QueueChangesQuery, QueueChangesSchema, type QueueChanges } from '../../src-shared/domain/sync-schemas.ts';
import { isAwaitingDebate, isAwaitingResponse } from '../../src-shared/rules/classification.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { statusFilterSql } from '../petitions/classification-sql.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { isPubliclyVisible, publiclyVisible } from '../petitions/public-visibility.ts';
import { problems } from '../http/route-contract.ts';
import { DOC_TAGS } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { PANEL_STAFF } from './staff-access.ts';

export const QUEUE_CHANGES_PATH = '/api/petitions/queue-changes';
export const BAD_CURSOR_ERROR = 'since must be a cursor returned by this endpoint';

interface Cursor {
  /** updated_at and id of the last petition returned. */
  u: string;
  i: number;
  /** The last audit entry id taken into account. */
  a: number;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.u === 'string' && Number.isSafeInteger(value.i) && Number.isSafeInteger(value.a)) {
      return { u: value.u, i: value.i as number, a: value.a as number };
    }
  } catch {
    // falls through to the 400
  }
  throw new HttpError(400, BAD_CURSOR_ERROR);
}

type PetitionsEb = ExpressionBuilder<Database, 'petitions'>;

export function registerQueueChangesRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { context } = deps;

  typed.get(
    QUEUE_CHANGES_PATH,
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'getQueueChanges',
        tags: [DOC_TAGS.petitions],
        summary: 'What changed in the staff queues since a cursor (staff)',
        description:
          'Without `since`: every petition now awaiting a government response or a debate, and a cursor. With `since`: ' +
          'every petition changed after the cursor (status, response, debate, term…), each with its queue membership by the ' +
          'shared classification (false for both means "no longer in a queue"), and the ids of petitions deleted since. ' +
          'Pages hold at most `limit` petitions; `more` says to call again at once with the new cursor. `reset` means all ' +
          'petitions were deleted: start again without `since`. Signature counts that change no status do not count as changes.',
        querystring: QueueChangesQuery,
        response: { 200: QueueChangesSchema, ...problems(400, 401, 403, 503) },
      },
    },
    async (request): Promise<QueueChanges> => {
      const since = request.query.since === undefined ? null : decodeCursor(request.query.since);
      const limit = request.query.limit ?? QUEUE_CHANGES_DEFAULT_LIMIT;
      const dialect = context.dialect;
      const counts = context.signatureCounts;
      return context.db.transaction().execute(async (trx) => {
        const lastAudit = await trx.selectFrom('audit_log').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
        const auditId = Number(lastAudit?.id ?? 0);
        let query = trx.selectFrom('petitions').selectAll().orderBy('updated_at').orderBy('id').limit(limit + 1);
        if (since) {
          query = query.where((eb) => eb.or([eb('updated_at', '>', since.u), eb.and([eb('updated_at', '=', since.u), eb('id', '>', since.i)])]));
        } else {
          // Starting empty, the console needs only what is in a queue now.
          query = query.where((eb: PetitionsEb) =>
            eb.and([
              publiclyVisible(eb),
              eb.or([statusFilterSql(eb, dialect, 'awaiting_response'), statusFilterSql(eb, dialect, 'awaiting_debate')].filter((e) => e !== null)),
            ]),
          );
        }
        const rows = await query.execute();
        const more = rows.length > limit;
        const page = rows.slice(0, limit);
        const changes = page.map((row) => {
          const petition = toPetition(counts.withLive(row));
          // A hidden or rejected petition is in no queue but the moderators' (docs/moderation.md#what-the-public-sees).
          const listed = isPubliclyVisible(row);
          return { petition, awaitingResponse: listed && isAwaitingResponse(petition), awaitingDebate: listed && isAwaitingDebate(petition) };
        });

        let removed: number[] = [];
        let reset = false;
        if (since) {
          const deletions = await trx
            .selectFrom('audit_log')
            .select(['action', 'target_id'])
            .where('id', '>', since.a)
            .where('id', '<=', auditId)
            .where('action', 'in', [AUDIT_ACTIONS.petitionDelete, AUDIT_ACTIONS.petitionDeleteAll])
            .execute();
          reset = deletions.some((d) => d.action === AUDIT_ACTIONS.petitionDeleteAll);
          removed = deletions.filter((d) => d.action === AUDIT_ACTIONS.petitionDelete && d.target_id !== null).map((d) => Number(d.target_id));
        }

        // The cursor moves to the last petition returned; with nothing new it stays where it was,
        // and a first call with nothing queued starts from the newest petition.
        const last = page.at(-1);
        let position = last ? { u: last.updated_at, i: last.id } : since ? { u: since.u, i: since.i } : null;
        if (!position || (!since && !more)) {
          const newest = await trx.selectFrom('petitions').select(['updated_at', 'id']).orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
          position = newest ? { u: newest.updated_at, i: newest.id } : { u: '', i: 0 };
        }
        return { cursor: encodeCursor({ ...position, a: auditId }), changes, removed, reset, more };
      });
    },
  );
}
