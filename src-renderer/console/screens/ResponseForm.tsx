/**
 * The government-response form of the console: the web panel's texts, validation and request
 * (src-renderer/staff/panel/responseForm.ts, src-shared validation), but the result is an outbox
 * action instead of a call. The office this member chose last is offered again for the next
 * petition (and on the next start: the console reads it from the server, lastOffice.ts).
 */
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { NotifyAudience } from '../../staff/panel/NotifyAudience.tsx';
import { ResponseFields } from '../../staff/panel/ResponseFields.tsx';
import {
  RESPONSE_REMOVAL,
  buildResponseRequest,
  initialResponseDraft,
  responseErrors,
  responseSummary,
} from '../../staff/panel/responseForm.ts';
import type { ResponseDraft, ResponseErrors } from '../../staff/panel/responseForm.ts';
import { STAFF_TEXTS } from '../../staff/lib/texts.ts';
import { lastOfficeKey, rememberedOffice } from '../lastOffice.ts';
import { useStores } from '../state/context.tsx';
import { QueuedForm, useQueuedForm } from './QueuedForm.tsx';
import type { QueueAction } from './QueuedForm.tsx';

export function ResponseForm({ petition, user, onQueue }: { petition: Petition; user: User; onQueue: QueueAction }) {
  const { nav } = useStores();
  const draftKey = `${petition.id}:respond`;
  const form = useQueuedForm<ResponseDraft, ResponseErrors, HTMLTextAreaElement>(
    draftKey,
    () => initialResponseDraft(petition, user, rememberedOffice(nav.getState().drafts, user.id)),
    (draft) => responseErrors(draft, user),
    (draft, typed) => ({ text: draft.text + typed }),
  );
  const { draft, errors } = form;
  const existing = Boolean(petition.governmentResponse);

  return (
    <QueuedForm
      titleId="response-form-title"
      title={existing ? STAFF_TEXTS.responseHeadingEdit : STAFF_TEXTS.responseHeadingAdd}
      summary={responseSummary(errors)}
      attempt={form.attempt}
      onSubmit={(event) =>
        form.submit(event, () => {
          nav.getState().setDraft(lastOfficeKey(user.id), draft.role);
          return onQueue(
            {
              kind: 'response.save',
              petitionId: petition.id,
              baseVersion: petition.version,
              body: buildResponseRequest(draft, petition.id),
            },
            draftKey,
            true,
          );
        })
      }
      hint="Ctrl+Enter queues the response and opens the next petition."
      busy={form.busy}
      submitLabel={existing ? STAFF_TEXTS.responseSubmitEdit : STAFF_TEXTS.responseSubmitAdd}
      removal={
        existing
          ? {
              texts: RESPONSE_REMOVAL,
              onConfirm: () =>
                void onQueue({ kind: 'response.remove', petitionId: petition.id, baseVersion: petition.version }, null, false),
            }
          : null
      }
    >
      <ResponseFields user={user} draft={draft} errors={errors} onChange={form.update} textRows={7} textRef={form.firstFieldRef} />
      <NotifyAudience petitionId={petition.id} topic="responses" version={petition.version} />
    </QueuedForm>
  );
}
