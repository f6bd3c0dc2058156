/**
 * The audit log screen (administrator), on the web's Term Management page and in the console:
 * staff actions newest first with who (name and role), what, on what, when applied and, for
 * actions from the console's outbox, when made; filters by who, what, petition and date range;
 * "Show older entries" pages through everything; the filtered log downloads as CSV (docs/audit.md).
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { AuditLogFilters } from '../../../src-shared/api/client.ts';
import type { AuditEntry } from '../../../src-shared/domain/schemas.ts';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useAsync } from '../../hooks/useAsync.ts';
import { platform } from '../../platform/index.ts';
import { api, errorDetail } from '../../services/api.ts';
import { usePetitionsVersion } from '../../stores/index.ts';
import {
  EMPTY_AUDIT_FILTERS,
  actionOptions,
  actorOptions,
  auditFilterErrors,
  auditFilters,
  auditLine,
  type AuditFilterDraft,
  type AuditFilterErrors,
} from './auditView.ts';

export const AUDIT_PAGE_SIZE = 25;
const ACTIONS = actionOptions();

interface Loaded {
  items: AuditEntry[];
  nextCursor: string | null;
}

/** The filtered CSV: a plain download link on the web; in the console, read through its cache and saved from memory. */
function CsvExport({ filters }: { filters: AuditLogFilters }) {
  const [failure, setFailure] = useState<string | null>(null);
  if (platform.kind === 'web') {
    return (
      <a className="button button--secondary" href={api.links.exportAuditLogCsv(filters)} download="audit-log.csv">
        Download CSV<span className="visually-hidden"> of the entries matching the filters</span>
      </a>
    );
  }
  const save = async () => {
    setFailure(null);
    try {
      // The console's API has no origin of its own: the link is the path `data:read` takes.
      const csv = await api.read<string>(api.links.exportAuditLogCsv(filters));
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'audit-log.csv';
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setFailure(errorDetail(error, 'The CSV could not be read.'));
    }
  };
  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => void save()}>
        Download CSV<span className="visually-hidden"> of the entries matching the filters</span>
      </button>
      {failure ? (
        <p className="error-message" role="alert">
          {failure}
        </p>
      ) : null}
    </>
  );
}

export function AuditLog({ refreshKey = 0, headingLevel = 2 }: { refreshKey?: number; headingLevel?: 2 | 3 }) {
  const version = usePetitionsVersion((s) => s.version);
  const [draft, setDraft] = useState<AuditFilterDraft>(EMPTY_AUDIT_FILTERS);
  const [applied, setApplied] = useState<AuditLogFilters>({});
  const [errors, setErrors] = useState<AuditFilterErrors>({});
  const actors = useAsync(() => api.listAuditLogActors(), [refreshKey, version]);
  const first = useAsync(() => api.listAuditLog({ ...applied, limit: AUDIT_PAGE_SIZE }), [applied, refreshKey, version]);
  const [older, setOlder] = useState<Loaded>({ items: [], nextCursor: null });
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  // A new first page (filters applied, a change elsewhere) starts the list again.
  useEffect(() => {
    setOlder({ items: [], nextCursor: null });
    setOlderError(null);
  }, [first.data]);

  const items = [...(first.data?.items ?? []), ...older.items];
  const nextCursor = older.items.length > 0 ? older.nextCursor : (first.data?.nextCursor ?? null);
  const Heading = `h${headingLevel}` as const;
  const SubHeading = `h${headingLevel + 1}` as 'h3' | 'h4';

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = auditFilterErrors(draft);
    setErrors(found);
    if (Object.keys(found).length === 0) setApplied(auditFilters(draft));
  };

  const clear = () => {
    setDraft(EMPTY_AUDIT_FILTERS);
    setErrors({});
    setApplied({});
  };

  const showOlder = async () => {
    if (!nextCursor) return;
    setLoadingOlder(true);
    setOlderError(null);
    const firstNew = items.length;
    try {
      const page = await api.listAuditLog({ ...applied, limit: AUDIT_PAGE_SIZE, cursor: nextCursor });
      setOlder((current) => ({ items: [...current.items, ...page.items], nextCursor: page.nextCursor }));
      // Focus goes to the first entry just added, so keyboard and screen reader users read on from there.
      requestAnimationFrame(() => listRef.current?.querySelectorAll<HTMLElement>('.audit-entry')[firstNew]?.focus());
    } catch (error) {
      setOlderError(errorDetail(error, 'The older entries could not be read.'));
    } finally {
      setLoadingOlder(false);
    }
  };

  const set = (key: keyof AuditFilterDraft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const filtered = Object.keys(applied).length > 0;

  return (
    <section className="staff-card audit-log" aria-labelledby="audit-log-heading">
      <Heading className="heading-m" id="audit-log-heading">
        Audit log
      </Heading>
      <form className="audit-filters" role="search" aria-label="Filter the audit log" onSubmit={apply} noValidate>
        <Field id="audit-actor" label="Who">
          {(a11y) => (
            <select id="audit-actor" className="select" value={draft.actor} onChange={(e) => set('actor')(e.target.value)} {...a11y}>
              <option value="">Anyone</option>
              {actorOptions(actors.data?.items ?? []).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="audit-action" label="What">
          {(a11y) => (
            <select id="audit-action" className="select" value={draft.action} onChange={(e) => set('action')(e.target.value)} {...a11y}>
              <option value="">Any action</option>
              {ACTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="audit-petition" label="Petition number" error={errors.petition}>
          {(a11y) => (
            <input
              id="audit-petition"
              className="input audit-filters__number"
              inputMode="numeric"
              autoComplete="off"
              value={draft.petition}
              onChange={(e) => set('petition')(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <Field id="audit-from" label="From (date applied)">
          {(a11y) => <input id="audit-from" className="input" type="date" value={draft.from} onChange={(e) => set('from')(e.target.value)} {...a11y} />}
        </Field>
        <Field id="audit-to" label="To (date applied)" error={errors.to}>
          {(a11y) => <input id="audit-to" className="input" type="date" value={draft.to} onChange={(e) => set('to')(e.target.value)} {...a11y} />}
        </Field>
        <div className="staff-actions audit-filters__actions">
          <button type="submit" className="button">
            Apply filters
          </button>
          <button type="button" className="button button--secondary" onClick={clear}>
            Clear filters
          </button>
          <CsvExport filters={applied} />
        </div>
      </form>

      {first.status === 'error' ? (
        <Notice tone="error" live="alert">
          <p>{errorDetail(first.error, 'The audit log could not be read.')}</p>
        </Notice>
      ) : null}
      <p className="audit-log__count" role="status">
        {first.status === 'loading'
          ? 'Loading the audit log…'
          : first.status === 'ready'
            ? items.length === 0
              ? filtered
                ? 'No entries match these filters.'
                : 'No staff actions recorded yet.'
              : `Showing ${items.length} ${items.length === 1 ? 'entry' : 'entries'}${filtered ? ' matching the filters' : ''}, newest first${nextCursor ? '; older entries follow' : ''}.`
            : ''}
      </p>
      {items.length > 0 ? (
        <ol className="audit-list" ref={listRef} aria-label="Audit log entries">
          {items.map(auditLine).map((line) => (
            <li className="audit-entry" key={line.id} tabIndex={-1}>
              <SubHeading className="audit-entry__what">
                {line.what} <span className="audit-entry__target">· {line.target}</span>
              </SubHeading>
              <p className="audit-entry__who">{line.who}</p>
              <p className="audit-entry__when">
                Applied {line.applied}
                {line.made ? (
                  <>
                    {' '}
                    · <strong>made {line.made}</strong> (queued offline)
                  </>
                ) : null}
              </p>
            </li>
          ))}
        </ol>
      ) : null}
      {olderError ? (
        <p className="error-message" role="alert">
          {olderError}
        </p>
      ) : null}
      <div className="staff-actions">
        {nextCursor ? (
          <button type="button" className="button button--secondary" disabled={loadingOlder} onClick={() => void showOlder()}>
            {loadingOlder ? 'Loading older entries…' : 'Show older entries'}
          </button>
        ) : null}
        <button type="button" className="button button--secondary" onClick={() => first.reload()}>
          Refresh
        </button>
      </div>
    </section>
  );
}
