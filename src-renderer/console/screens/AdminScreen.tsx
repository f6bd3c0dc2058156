/**
 * The administrator's screens of the web app (terms, assignment, maintenance, bans and ban
 * statistics, status override, signature integrity, audit log, statistics), reused as they are: the console gives them a read
 * transport over `data:read` and a write seam that queues outbox actions.
 */
import { useMemo } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { isAdministrator } from '../../../src-shared/rules/permissions.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { api } from '../../services/api.ts';
import { usePetitionsVersion } from '../../stores/index.ts';
import { AuditLog } from '../../staff/audit/AuditLog.tsx';
import { BanManagement } from '../../staff/dangerous/BanManagement.tsx';
import { MaintenanceToggle } from '../../staff/dangerous/MaintenanceToggle.tsx';
import { StatusOverride } from '../../staff/dangerous/StatusOverride.tsx';
import { SignatureIntegrity } from '../../staff/integrity/SignatureIntegrity.tsx';
import { StaffWritesProvider } from '../../staff/lib/staffWrites.tsx';
import { SummarySlotProvider } from '../../staff/lib/summarySlot.tsx';
import { AssignPetitions } from '../../staff/terms/AssignPetitions.tsx';
import { TermsGrid } from '../../staff/terms/TermsGrid.tsx';
import { StatisticsPanel } from '../../staff/statistics/StatisticsPanel.tsx';
import { ADMIN_SECTIONS } from '../components/Navigation.tsx';
import { useStores } from '../state/context.tsx';
import { useUser } from '../state/selectors.ts';
import type { AdminSection } from '../state/navStore.ts';
import { consoleWrites, readWebScreensThroughConsole } from '../staffSeam.ts';

function Terms({ assign }: { assign: boolean }) {
  const version = usePetitionsVersion((s) => s.version);
  const terms = useAsync(() => api.listTerms(), [version]);
  if (assign) return <AssignPetitions terms={terms.data ?? []} />;
  return <TermsGrid terms={terms} onRetry={terms.reload} onChanged={terms.reload} />;
}

export function AdminScreen({ section }: { section: AdminSection }) {
  const stores = useStores();
  const user = useUser();
  const writes = useMemo(() => {
    // The reused web screens read through the console's cache.
    readWebScreensThroughConsole(stores.api);
    return consoleWrites(stores);
  }, [stores]);
  if (!isAdministrator(user)) {
    return (
      <section className="console-screen">
        <h1 className="heading-l">{ADMIN_SECTIONS[section]}</h1>
        <p>Only the System Administrator can use this screen.</p>
      </section>
    );
  }
  return (
    // A plain container: the reused screens bring their own labelled sections (one may share this title).
    <div className="console-screen staff-page">
      <div className="console-screen__head">
        <h1 className="heading-l" id="admin-title" tabIndex={-1}>
          {ADMIN_SECTIONS[section]}
        </h1>
        <p className="console-hint">Changes are queued in the outbox and sent when the console is online.</p>
      </div>
      <MemoryRouter>
        <StaffWritesProvider value={writes}>
          <SummarySlotProvider>
            {section === 'terms' ? <Terms assign={false} /> : null}
            {section === 'assign' ? <Terms assign /> : null}
            {section === 'maintenance' || section === 'bans' || section === 'status' ? (
              // These were written for the web's "Dangerous Actions" card (h3 headings under its h2).
              <section className="staff-card staff-danger" aria-labelledby="danger-heading">
                <h2 className="heading-m staff-danger__title" id="danger-heading">
                  Dangerous Actions
                </h2>
                <p>These actions affect the whole site. They are recorded in the audit log.</p>
                {section === 'maintenance' ? <MaintenanceToggle /> : null}
                {section === 'bans' ? <BanManagement /> : null}
                {section === 'status' ? <StatusOverride /> : null}
              </section>
            ) : null}
            {section === 'integrity' ? <SignatureIntegrity /> : null}
            {section === 'audit' ? <AuditLog /> : null}
            {section === 'statistics' ? <StatisticsPanel /> : null}
          </SummarySlotProvider>
        </StaffWritesProvider>
      </MemoryRouter>
    </div>
  );
}
