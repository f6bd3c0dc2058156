/**
 * Bulk moderation (docs/moderation.md#in-the-staff-console): keep, hide or reject the marked cases
 * in one step. Each petition becomes its own outbox row, based on the version listed, and the rows
 * go together as one batch (sent as `POST /api/petitions/bulk-moderation`); a petition whose state
 * refuses the decision is not sent and says why. Results are shown per petition, as the bulk status
 * override shows them, and the failures can be tried again.
 */
import { BulkResults } from './BulkResults.tsx';
import { useState } from 'react';
import { MODERATION_DECISION_LABELS } from '../../../src-shared/domain/moderation-constants.ts';
import type { ModerationCase } from '../../../src-shared/domain/moderation-schemas.ts';
import { MODERATION_ERRORS, hideReasonError, type DecisionRequest } from '../../../src-shared/rules/moderation.ts';
import { countResults, RETRYABLE_RESULTS, type BulkResult } from '../bulk.ts';
import { errorMessage } from '../consoleApi.ts';
import { decisionAction, moderationBulkResult, planBulkDecision } from '../moderation.ts';
import { moderationStateText, resubmission } from '../outboxView.ts';
import { latestEntryFor } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { ReasonForm } from './ModerationReasonForm.tsx';

interface Batch {
  request: DecisionRequest;
  /** The cases as they were when decided (a result of "unchanged" is judged against them). */
  sent: ModerationCase[];
  refused: { item: ModerationCase; message: string }[];
  /** Outbox sequence of the batch's first row: later rows for the same petition are its retries. */
  fromSeq: number;
}

type RowResult = BulkResult | 'not sent';

export function ModerationBulk({ items, marked }: { items: readonly ModerationCase[]; marked: readonly ModerationCase[] }) {
  const { moderation, outbox, toasts } = useStores();
  const reasons = moderation((s) => s.reasons.data) ?? [];
  const entries = outbox((s) => s.entries);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [busy, setBusy] = useState(false);
  const allMarked = items.length > 0 && items.every((item) => marked.includes(item));

  const decide = async (request: DecisionRequest): Promise<boolean> => {
    if (marked.length === 0) return false;
    const plan = planBulkDecision(marked, request);
    setBusy(true);
    try {
      let fromSeq = Number.MAX_SAFE_INTEGER;
      if (plan.send.length) {
        const queued = await outbox.getState().enqueue(
          plan.send.map((item) => decisionAction(item.petition, request)),
          true,
        );
        fromSeq = Math.min(...queued.map((e) => e.seq));
      }
      setBatch({ request, sent: plan.send, refused: plan.refused, fromSeq });
      moderation.getState().setMarked([]);
      const label = MODERATION_DECISION_LABELS[request.decision];
      toasts.getState().push('info', `Queued: ${label} ${plan.send.length} ${plan.send.length === 1 ? 'petition' : 'petitions'}${plan.refused.length ? `; ${plan.refused.length} not sent` : ''}.`);
      return true;
    } catch (error) {
      toasts.getState().push('error', `Could not queue the decisions: ${errorMessage(error)}`);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const rows = batch
    ? [
        ...batch.sent.map((item) => {
          const entry = latestEntryFor(
            entries.filter((e) => e.seq >= batch.fromSeq),
            item.petition.id,
          );
          const result: RowResult = entry ? moderationBulkResult(entry, item) : 'queued';
          const detail =
            entry?.state === 'conflict' && entry.serverPetition
              ? `Now: ${moderationStateText(entry.serverPetition)} (version ${entry.serverPetition.version})`
              : (entry?.lastError ?? '');
          return { item, entry, result, detail };
        }),
        ...batch.refused.map(({ item, message }) => ({ item, entry: null, result: 'not sent' as RowResult, detail: message })),
      ]
    : [];
  const counts = countResults(rows.map((r) => r.result as BulkResult));
  const failures = rows.filter((r) => r.entry && RETRYABLE_RESULTS.includes(r.result as BulkResult));

  const retryFailures = async () => {
    setBusy(true);
    try {
      for (const { entry } of failures) {
        if (!entry) continue;
        const again = entry.state === 'conflict' && entry.serverPetition ? resubmission(entry.action, entry.serverPetition) : null;
        if (again) await outbox.getState().resubmit(entry.id, again);
        else if (entry.state !== 'conflict') await outbox.getState().retry(entry.id);
      }
      toasts.getState().push('info', `Tried ${failures.length} failed decisions again.`);
    } catch (error) {
      toasts.getState().push('error', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section className="console-bulk__bar console-mod-bulk" aria-labelledby="moderation-bulk-title">
        <h2 className="heading-s console-mod-bulk__title" id="moderation-bulk-title">
          Bulk decision
        </h2>
        <button
          type="button"
          className="button button--secondary console-small"
          disabled={items.length === 0}
          onClick={() => moderation.getState().setMarked(allMarked ? [] : items.map((item) => item.petition.id))}
        >
          {allMarked ? 'Clear the marks' : `Mark all ${items.length} shown`}
        </button>
        <p className="console-bulk__preview" role="status" data-testid="moderation-marked">
          {marked.length} marked
        </p>
        {marked.length > 0 ? (
          <>
            <button
              type="button"
              className="button button--secondary console-small"
              disabled={busy || marked.length === 0}
              onClick={() => void decide({ decision: 'keep' })}
            >
              Keep {marked.length} marked
            </button>
            <ReasonForm
              id="moderation-bulk-hide"
              label="Reason for hiding (the creators read it)"
              submitLabel={`Hide ${marked.length} marked`}
              check={hideReasonError}
              disabled={busy || marked.length === 0}
              onSubmit={(reason) => decide({ decision: 'hide', reason })}
            />
            <ReasonForm
              id="moderation-bulk-reject"
              label="Rejection reason"
              submitLabel={`Reject ${marked.length} marked`}
              reasons={reasons}
              check={(code) => (code ? null : MODERATION_ERRORS.rejectionReasonRequired)}
              disabled={busy || marked.length === 0}
              onSubmit={(reasonCode) => decide({ decision: 'reject', reasonCode })}
            />
          </>
        ) : (
          <p className="console-hint console-mod-bulk__hint">Space marks the selected case; then keep, hide or reject the marked ones here.</p>
        )}
      </section>

      {batch ? (
        <BulkResults
          id="moderation-results-title"
          title={MODERATION_DECISION_LABELS[batch.request.decision]}
          countsTestId="moderation-bulk-counts"
          counts={counts}
          rows={rows.map(({ item, result, detail }) => ({ petition: item.petition, result, detail }))}
          failureCount={failures.length}
          busy={busy}
          onRetry={() => void retryFailures()}
        />
      ) : null}
    </>
  );
}
