/**
 * Maintenance mode (docs/rules.md#maintenance): shows the server's current state and switches it. The administrator
 * is exempt, so after switching it on they keep using the site while everyone else sees
 * 'Site Under Maintenance'. Turning it on asks first.
 */
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { api } from '../../services/api.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { useSite } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success } from '../lib/outcome.ts';
import type { Outcome } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { maintenanceStateText } from './siteActions.ts';

export function MaintenanceToggle() {
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const writes = useStaffWrites();
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const load = async () => {
    try {
      const status = await api.getSiteStatus();
      setOn(status.maintenance);
      useSite.getState().setMaintenance(status.maintenance);
    } catch (error) {
      setOutcome(failure(error, STAFF_TEXTS.maintenanceReadFailed));
    }
  };

  useEffect(() => {
    void load();
  }, []);

  const change = async (next: boolean) => {
    setBusy(true);
    setOutcome(null);
    try {
      const status = await writes.perform({ kind: 'site.maintenance', maintenance: next });
      if (isQueued(status)) {
        setOutcome(queuedOutcome(status));
        return;
      }
      setOn(status.maintenance);
      // Mirror the server in the app shell; the administrator is exempt and keeps the site.
      useSite.getState().setMaintenance(status.maintenance);
      setOutcome(success(status.maintenance ? 'Maintenance mode turned on.' : 'Maintenance mode turned off.'));
    } catch (error) {
      setOutcome(failure(error, STAFF_TEXTS.maintenanceFailed));
    } finally {
      setConfirming(false);
      setBusy(false);
    }
  };

  return (
    <section className="staff-danger__item" aria-labelledby="maintenance-heading">
      <h3 className="heading-s" id="maintenance-heading">
        Maintenance Mode
      </h3>
      <p id="maintenance-state">{on === null ? 'Checking the current state...' : maintenanceStateText(on)}</p>
      <OutcomeNotice outcome={outcome} onDismiss={() => setOutcome(null)} />
      <button
        type="button"
        role="switch"
        className={`button switch${on ? ' switch--on' : ' button--secondary'}`}
        aria-checked={on ?? false}
        aria-describedby="maintenance-state"
        disabled={on === null || busy}
        onClick={() => (on ? void change(false) : setConfirming(true))}
      >
        <span className="switch__track" aria-hidden="true">
          <span className="switch__thumb" />
        </span>
        Maintenance mode
      </button>
      <ConfirmDialog
        open={confirming}
        title={STAFF_TEXTS.maintenanceOnTitle}
        message={STAFF_TEXTS.maintenanceOnConfirm}
        confirmLabel="Turn On Maintenance"
        danger
        busy={busy}
        onConfirm={() => void change(true)}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
