/**
 * The debate form of the console: every debate status with the web panel's fields, labels,
 * validation and request (src-renderer/staff/panel/debateForm.ts), queued in the outbox.
 */
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { DebateFields } from '../../staff/panel/DebateFields.tsx';
import { NotifyAudience } from '../../staff/panel/NotifyAudience.tsx';
import {
  DEBATE_REMOVAL,
  buildDebateRequest,
  debateErrors,
  debateFormTitle,
  debateSubmitLabel,
  debateSummary,
  initialDebateDraft,
} from '../../staff/panel/debateForm.ts';
import type { DebateFormDraft, DebateErrors } from '../../staff/panel/debateForm.ts';
import { QueuedForm, useQueuedForm } from './QueuedForm.tsx';
import type { QueueAction } from './QueuedForm.tsx';

export function DebateForm({ petition, user, onQueue }: { petition: Petition; user: User; onQueue: QueueAction }) {
  const draftKey = `${petition.id}:debate`;
  const info = petition.debateInfo;
  const form = useQueuedForm<DebateFormDraft, DebateErrors, HTMLSelectElement>(
    draftKey,
    () => initialDebateDraft(info),
    debateErrors,
  );
  const { draft, errors } = form;

  return (
    <QueuedForm
      titleId="debate-form-title"
      title={debateFormTitle(Boolean(info))}
      summary={debateSummary(errors)}
      attempt={form.attempt}
      onSubmit={(event) =>
        form.submit(event, () =>
          onQueue(
            {
              kind: 'debate.save',
              petitionId: petition.id,
              baseVersion: petition.version,
              body: buildDebateRequest(draft, petition.id, user),
            },
            draftKey,
            true,
          ),
        )
      }
      hint="Ctrl+Enter queues the decision and opens the next petition."
      busy={form.busy}
      submitLabel={debateSubmitLabel(draft.status)}
      removal={
        info
          ? {
              texts: DEBATE_REMOVAL,
              onConfirm: () =>
                void onQueue({ kind: 'debate.remove', petitionId: petition.id, baseVersion: petition.version }, null, false),
            }
          : null
      }
    >
      <DebateFields
        draft={draft}
        errors={errors}
        setField={(key, value) => form.update({ [key]: value })}
        onStatusChange={() => form.setErrors({})}
        statusRef={form.firstFieldRef}
      />
      <NotifyAudience petitionId={petition.id} topic="debates" version={petition.version} />
    </QueuedForm>
  );
}
