/** The 'Dangerous Actions' area: maintenance, bans, status override, deleting a member's data and Delete All Petitions. */
import { BanManagement } from './BanManagement.tsx';
import { DeleteAllPetitions } from './DeleteAllPetitions.tsx';
import { DeleteMemberData } from './DeleteMemberData.tsx';
import { MaintenanceToggle } from './MaintenanceToggle.tsx';
import { StatusOverride } from './StatusOverride.tsx';
import { useStaffWrites } from '../lib/staffWrites.tsx';

export function DangerousActions() {
  // Deleting every petition has no queued form: the console leaves it to the website.
  const { queues } = useStaffWrites();
  return (
    <section className="staff-card staff-danger" aria-labelledby="danger-heading">
      <h2 className="heading-m staff-danger__title" id="danger-heading">
        Dangerous Actions
      </h2>
      <p>These actions affect the whole site. They are recorded in the audit log.</p>
      <MaintenanceToggle />
      <BanManagement />
      <StatusOverride />
      {/* Neither has a queued form: the console leaves them to the website. */}
      {queues ? null : <DeleteMemberData />}
      {queues ? null : <DeleteAllPetitions />}
    </section>
  );
}
