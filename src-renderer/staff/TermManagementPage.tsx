/**
 * Term management (/term-management): terms, assignment of petitions to terms, the
 * administrator's dangerous actions and the audit log. Lazily loaded for administrators only; the server refuses
 * every call here to anyone else.
 */
import { useState } from 'react';
import { Link } from '../components/Link.tsx';
import { APP_PATHS } from '../../src-shared/domain/app-paths.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { canManageTerms } from '../../src-shared/rules/permissions.ts';
import { Loading } from '../components/Loading.tsx';
import { Notice } from '../components/Notice.tsx';
import { useAsync } from '../hooks/useAsync.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { api } from '../services/api.ts';
import { useSession, useSite } from '../stores/index.ts';
import { AuditLog } from './audit/AuditLog.tsx';
import { DangerousActions } from './dangerous/DangerousActions.tsx';
import { SignatureIntegrity } from './integrity/SignatureIntegrity.tsx';
import { SummarySlotProvider } from './lib/summarySlot.tsx';
import { AssignPetitions } from './terms/AssignPetitions.tsx';
import { TermsGrid } from './terms/TermsGrid.tsx';
import './staff.css';

export const TERM_MANAGEMENT_TITLE = 'Term Management';

function TermManagement() {
  const terms = useAsync(() => api.listTerms(), []);
  const [activityKey, setActivityKey] = useState(0);

  const termsChanged = () => {
    terms.reload();
    setActivityKey((n) => n + 1);
    // Home, the create page and the petition list read terms from the site store.
    void useSite.getState().refresh();
  };

  return (
    <SummarySlotProvider>
      <nav className="staff-toc" aria-label="On this page">
        <ul>
          <li>
            <a href="#terms-heading">Parliamentary Terms</a>
          </li>
          <li>
            <a href="#create-term-heading">Create New Term</a>
          </li>
          <li>
            <a href="#assign-heading">Assign Petitions</a>
          </li>
          <li>
            <a href="#danger-heading">Dangerous Actions</a>
          </li>
          <li>
            <a href="#integrity-heading">Signature integrity</a>
          </li>
          <li>
            <a href="#audit-log-heading">Audit log</a>
          </li>
          <li>
            <Link to={APP_PATHS.statistics}>Statistics</Link>
          </li>
        </ul>
      </nav>
      <TermsGrid terms={terms} onRetry={terms.reload} onChanged={termsChanged} />
      <AssignPetitions terms={terms.data ?? []} />
      <DangerousActions />
      <SignatureIntegrity />
      <AuditLog refreshKey={activityKey} />
    </SummarySlotProvider>
  );
}

export default function TermManagementPage() {
  useDocumentTitle(TERM_MANAGEMENT_TITLE);
  const user = useSession((s) => s.user);
  const status = useSession((s) => s.status);

  return (
    <div className="staff-page">
      <h1 className="heading-xl">{TERM_MANAGEMENT_TITLE}</h1>
      {status === 'loading' ? (
        <Loading text="Checking your access..." />
      ) : !canManageTerms(user) ? (
        <Notice tone="error" title="Access Denied" headingLevel={2}>
          <p>{ERRORS.adminOnly}</p>
        </Notice>
      ) : (
        <>
          <p className="body-l">Manage parliamentary terms, assign petitions to terms and run site-wide actions.</p>
          <TermManagement />
        </>
      )}
    </div>
  );
}
