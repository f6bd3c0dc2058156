/**
 * The audit log, read by the administrator: a page of entries with filters, the people who appear
 * in it, and every matching entry as CSV (docs/audit.md).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_ACTION_LABELS, type AuditAction } from '../../src-shared/domain/audit-actions.ts';
import {
  AuditLogActorSchema,
  AuditLogPageSchema,
  ID_MESSAGES,
  IsoDate,
  PetitionId,
  UserId,
  idText,
  wholeNumberText,
  type AuditEntry,
} from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { problems } from '../http/route-contract.ts';
import { csvLine } from '../petitions/csv-export.ts';
import { DOC_TAGS } from '../staff/route-schemas.ts';
import { AUDIT_READERS } from '../staff/staff-access.ts';
import { AUDIT_PAGE_MAX, allAuditEntries, listAudit, listAuditActors, type AuditFilters } from './audit-log.ts';

const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

/** A real calendar day: 2026-02-30 has the right shape but is no day. */
const CalendarDay = IsoDate.refine((day) => {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(day);
}, 'Dates are written YYYY-MM-DD and must exist');

const FILTER_FIELDS = {
  /** A user id, or `system` for what the server did on its own. */
  actor: z.union([UserId, z.literal('system')]).optional(),
  action: z.enum(AUDIT_ACTION_NAMES).optional(),
  petition: PetitionId.optional(),
  from: CalendarDay.optional(),
  to: CalendarDay.optional(),
};

function datesInOrder(query: { from?: string; to?: string }, context: z.RefinementCtx): void {
  if (query.from && query.to && query.from > query.to) {
    context.addIssue({ code: 'custom', path: ['to'], message: 'The end date must not be before the start date' });
  }
}

const AuditQuery = z
  .strictObject({
    limit: wholeNumberText(1, AUDIT_PAGE_MAX).optional(),
    /** The previous answer's `nextCursor`. */
    cursor: idText('The cursor is the nextCursor of a previous answer').optional(),
    /** An entry id: the page holds entries older than it (the same as `cursor`). */
    before: idText(ID_MESSAGES.entry).optional(),
    ...FILTER_FIELDS,
  })
  .superRefine(datesInOrder)
  .superRefine((query, context) => {
    if (query.cursor !== undefined && query.before !== undefined) {
      context.addIssue({ code: 'custom', path: ['cursor'], message: 'Send cursor or before, not both' });
    }
  });

const AuditCsvQuery = z.strictObject(FILTER_FIELDS).superRefine(datesInOrder);

export const AUDIT_CSV_COLUMNS = [
  'id',
  'applied_at',
  'made_at',
  'actor_id',
  'actor_name',
  'actor_role',
  'action',
  'action_label',
  'target_type',
  'target_id',
  'before',
  'after',
] as const;

function auditCsvValues(entry: AuditEntry): (string | number | null)[] {
  const label = (AUDIT_ACTION_LABELS as Record<string, string>)[entry.action] ?? entry.action;
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  return [entry.id, entry.at, entry.made_at, entry.actor_id, entry.actor_name, entry.actor_role, entry.action, label, entry.target_type, entry.target_id, json(entry.before), json(entry.after)];
}

/**
 * The CSV as a stream. The first page is read before answering, so a failure there is still an
 * ordinary error reply; later pages follow as the client reads.
 */
async function auditCsvStream(context: AppContext, filters: AuditFilters): Promise<Readable> {
  const pages = allAuditEntries(context.db, filters);
  const first = await pages.next();
  const lines = (page: AuditEntry[]) => page.map((entry) => csvLine(auditCsvValues(entry))).join('');
  async function* all(): AsyncGenerator<string> {
    yield csvLine(AUDIT_CSV_COLUMNS);
    if (first.done) return;
    yield lines(first.value);
    for await (const page of pages) yield lines(page);
  }
  return Readable.from(all());
}

const FILTERS_DESCRIPTION =
  'Filters, all optional and combined: `actor` (a user id, or `system`), `action` (an audit action name), `petition` ' +
  '(entries about that petition), `from` and `to` (UK calendar days, inclusive, of the time the action was applied).';

export function registerAuditRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/audit-log',
    {
      config: { access: AUDIT_READERS },
      schema: {
        operationId: 'listAuditLog',
        tags: [DOC_TAGS.audit],
        summary: 'Staff actions, newest first (administrator)',
        description:
          `${FILTERS_DESCRIPTION} Each entry names the actor (actor_name, actor_role), when the action was applied (at) and, ` +
          'for an action that reached the server later than it was made (the console\'s outbox), when it was made (made_at). ' +
          'Page back with `cursor` = the previous answer\'s `nextCursor` (null on the last page); `before` = an entry id does the same.',
        querystring: AuditQuery,
        response: { 200: AuditLogPageSchema, ...problems(400, 401, 403, 503) },
      },
    },
    async (request) => {
      const { cursor, before, ...rest } = request.query;
      return listAudit(context.db, { ...rest, before: cursor ?? before });
    },
  );

  typed.get(
    '/api/audit-log/actors',
    {
      config: { access: AUDIT_READERS },
      schema: {
        operationId: 'listAuditLogActors',
        tags: [DOC_TAGS.audit],
        summary: 'Everyone who appears in the audit log, for its filter (administrator)',
        description: 'Each with their display name (null for `system` or a user the server never saw) and the role of their latest entry.',
        response: { 200: z.object({ items: z.array(AuditLogActorSchema) }), ...problems(401, 403, 503) },
      },
    },
    async () => ({ items: await listAuditActors(context.db) }),
  );

  typed.get(
    '/api/audit-log.csv',
    {
      config: { access: AUDIT_READERS },
      schema: {
        operationId: 'exportAuditLogCsv',
        tags: [DOC_TAGS.audit],
        summary: 'Download the audit log as CSV (administrator)',
        description:
          `Every entry matching the filters, newest first (no paging). ${FILTERS_DESCRIPTION} Columns: ${AUDIT_CSV_COLUMNS.join(', ')} ` +
          '(before and after as JSON; cells a spreadsheet would run as a formula start with an apostrophe).',
        querystring: AuditCsvQuery,
        response: {
          200: {
            description: 'CSV text, one header line then one line per entry (sent as an attachment).',
            content: { 'text/csv': { schema: z.unknown() } },
          },
          ...problems(400, 401, 403, 503),
        },
      },
    },
    async (request, reply) => {
      const stream = await auditCsvStream(context, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
