/**
 * "Report this petition" on a petition page (docs/moderation.md#reporting): after a report, or when the
 * member reported earlier, it says so instead. Who is offered it (`canReportPetition`) is decided by the page,
 * which loads this chunk only for them. The dialog is its own chunk, loaded when the button is pressed.
 */
import { Suspense, lazy, useRef, useState } from 'react';
import type { PetitionDetail } from '../../../src-shared/domain/schemas.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';

const ReportDialog = lazy(() => import('./ReportDialog.tsx'));

export default function ReportSection({ petition }: { petition: PetitionDetail }) {
  const [open, setOpen] = useState(false);
  const [reported, setReported] = useState(false);
  const section = useRef<HTMLDivElement>(null);
  const already = reported || petition.reported_by_viewer;
  const close = () => {
    setOpen(false);
    // The button that opened the dialog may have given way to "already reported": focus what is there.
    window.requestAnimationFrame(() => (section.current?.querySelector<HTMLElement>('button') ?? section.current)?.focus());
  };
  return (
    <div className="report" ref={section} tabIndex={-1}>
      {already ? (
        <p className="report__done">{MODERATION_TEXTS.alreadyReported}</p>
      ) : (
        <button type="button" className="link-button report__button" onClick={() => setOpen(true)}>
          {MODERATION_TEXTS.reportButton}
        </button>
      )}
      {open ? (
        <Suspense fallback={null}>
          <ReportDialog petitionId={petition.id} onReported={() => setReported(true)} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
