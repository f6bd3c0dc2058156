/** 'Create New Term': new terms default to upcoming (docs/rules.md#terms). */
import { useState } from 'react';
import type { TermRequest } from '../../../src-shared/domain/schemas.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { success, termFailure } from '../lib/outcome.ts';
import type { Outcome } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { TermForm } from './TermForm.tsx';
import { EMPTY_TERM_DRAFT } from './termForm.ts';

export function CreateTerm({ onCreated }: { onCreated: () => void }) {
  const [busy, setBusy] = useState(false);
  const writes = useStaffWrites();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const create = async (request: TermRequest): Promise<boolean> => {
    setBusy(true);
    setOutcome(null);
    try {
      const done = await writes.perform({ kind: 'term.create', body: request });
      setOutcome(isQueued(done) ? queuedOutcome(done) : success(STAFF_TEXTS.termCreated));
      onCreated();
      return true;
    } catch (error) {
      setOutcome(termFailure('create', error));
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="staff-card" aria-labelledby="create-term-heading">
      <h2 className="heading-m" id="create-term-heading">
        Create New Term
      </h2>
      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} />
      <TermForm
        idPrefix="new-term"
        initial={EMPTY_TERM_DRAFT}
        submitLabel="Create Term"
        busy={busy}
        labelledBy="create-term-heading"
        onSubmit={create}
      />
    </section>
  );
}
