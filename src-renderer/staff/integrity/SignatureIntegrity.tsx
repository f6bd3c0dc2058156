/**
 * Signature integrity for the administrator (docs/integrity.md): unusual signing as it happens,
 * invalidation with a preview, and the jobs with their progress. The same component is the web
 * staff panel's section and the console's screen (writes through the staff seam).
 */
import { useCallback, useEffect, useState } from 'react';
import type { InvalidationJob } from '../../../src-shared/domain/integrity-schemas.ts';
import { api } from '../../services/api.ts';
import { InvalidationForm } from './InvalidationForm.tsx';
import { InvalidationJobs } from './InvalidationJobs.tsx';
import { isJobUnfinished } from '../../../src-shared/rules/signature-integrity.ts';
import { INTEGRITY_TEXTS } from './integrityView.ts';
import { UnusualSigningTable } from './UnusualSigningTable.tsx';

/** While a job runs its progress is asked for this often; otherwise the list is read now and then. */
const ACTIVE_REFRESH_MS = 2_000;
const IDLE_REFRESH_MS = 15_000;

export function SignatureIntegrity() {
  const [jobs, setJobs] = useState<InvalidationJob[] | null>(null);
  const [jobsFailed, setJobsFailed] = useState(false);
  const [reviewing, setReviewing] = useState<number | null>(null);

  const loadJobs = useCallback(async () => {
    try {
      setJobs((await api.listInvalidations()).items);
      setJobsFailed(false);
    } catch {
      setJobsFailed(true);
    }
  }, []);

  const active = jobs?.some(isJobUnfinished) ?? false;
  useEffect(() => {
    void loadJobs();
    const timer = setInterval(() => void loadJobs(), active ? ACTIVE_REFRESH_MS : IDLE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [loadJobs, active]);

  return (
    <section className="staff-card staff-danger" aria-labelledby="integrity-heading">
      <h2 className="heading-m staff-danger__title" id="integrity-heading">
        {INTEGRITY_TEXTS.title}
      </h2>
      <UnusualSigningTable onInvalidate={setReviewing} />
      <InvalidationForm petitionId={reviewing} onRequested={() => void loadJobs()} />
      <InvalidationJobs jobs={jobs} failed={jobsFailed} onChanged={() => void loadJobs()} />
    </section>
  );
}
