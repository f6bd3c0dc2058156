/**
 * The government-response form of the console: the web panel's texts, validation and request
 * (src-renderer/staff/panel/responseForm.ts, src-shared validation), but the result is an outbox
 * action instead of a call. The office chosen last is offered again for the next petition.
 */
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
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
import { useStores } from '../state/context.tsx';
import { QueuedForm, useQueuedForm } from './QueuedForm.tsx';
import type { QueueAction } from './QueuedForm.tsx';

export const LAST_ROLE_KEY = 'last-role';

export function ResponseForm({ petition, user, onQueue }: { petition: Petition; user: User; onQueue: QueueAction }) {
  const { nav } = useStores();
  const draftKey = `${petition.id}:respond`;
  const form = useQueuedForm<ResponseDraft, ResponseErrors, HTMLTextAreaElement>(
    draftKey,
    () => {
      const initial = initialResponseDraft(petition, user);
      const lastRole = nav.getState().drafts[LAST_ROLE_KEY];
      return { ...initial, role: initial.role || (typeof lastRole === 'string' ? lastRole : '') };
    },
    responseErrors,
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
          nav.getState().setDraft(LAST_ROLE_KEY, draft.role);
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
      <ResponseFields draft={draft} errors={errors} onChange={form.update} textRows={7} textRef={form.firstFieldRef} />
    </QueuedForm>
  );
}
