/**
 * Ban statistics plus ban management: ban a ROBLOX user id with a reason, list the bans, unban.
 * Banned users cannot create petitions (docs/rules.md#bans).
 */
import { useCallback, useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import type { Ban, BanStats } from '../../../src-shared/domain/schemas.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field } from '../../components/Field.tsx';
import { Notice } from '../../components/Notice.tsx';
import { api } from '../../services/api.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { failure, success } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { BanStatistics } from './BanStatistics.tsx';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { BAN_FIELD_IDS, banFormErrors } from './bans.ts';

export function BanManagement() {
  const writes = useStaffWrites();
  const [stats, setStats] = useState<BanStats | null>(null);
  const [statsFailed, setStatsFailed] = useState(false);
  const [bans, setBans] = useState<Ban[] | null>(null);
  const [bansFailed, setBansFailed] = useState(false);
  const [userId, setUserId] = useState('');
  const [reason, setReason] = useState('');
  const [unbanning, setUnbanning] = useState<Ban | null>(null);
  const form = useStaffForm<Partial<Record<'userId' | 'reason', string>>>('ban', {});
  const { errors, attempt, busy, setBusy, outcome, setOutcome, slot } = form;

  const loadStats = useCallback(async () => {
    try {
      setStats(await api.getBanStats());
      setStatsFailed(false);
    } catch {
      setStatsFailed(true);
    }
  }, []);

  const loadBans = useCallback(async () => {
    try {
      setBans(await api.listBans());
      setBansFailed(false);
    } catch {
      setBansFailed(true);
    }
  }, []);

  useEffect(() => {
    void loadStats();
    void loadBans();
  }, [loadStats, loadBans]);

  const submit = (event: FormEvent) =>
    form.submit(
      event,
      banFormErrors({ userId, reason }),
      async () => {
        const id = userId.trim();
        const body = { reason: reason.trim() };
        const done = await writes.perform({ kind: 'ban.add', userId: id, body });
        setOutcome(isQueued(done) ? queuedOutcome(done) : success(`User ${id} banned.`));
        setUserId('');
        setReason('');
        await Promise.all([loadBans(), loadStats()]);
      },
      (error) => failure(error, STAFF_TEXTS.banFailed),
    );

  const unban = async () => {
    if (!unbanning) return;
    const id = unbanning.user_id;
    setBusy(true);
    setOutcome(null);
    try {
      const done = await writes.perform({ kind: 'ban.remove', userId: id });
      form.focusOutcome();
      setOutcome(isQueued(done) ? queuedOutcome(done) : success(`User ${id} unbanned.`));
      await Promise.all([loadBans(), loadStats()]);
    } catch (error) {
      setOutcome(failure(error, STAFF_TEXTS.unbanFailed));
    } finally {
      setUnbanning(null);
      setBusy(false);
    }
  };

  const summary = (['userId', 'reason'] as const).flatMap((key) =>
    errors[key] ? [{ fieldId: BAN_FIELD_IDS[key], message: errors[key] }] : [],
  );

  return (
    <>
      <BanStatistics
        stats={stats}
        failed={statsFailed}
        onRefresh={() => {
          void loadStats();
          void loadBans();
        }}
      />
      <section className="staff-danger__item" aria-labelledby="bans-heading">
        <h3 className="heading-s" id="bans-heading">
          Ban Management
        </h3>
        {slot.visible ? <ErrorSummary errors={summary} focusKey={attempt} /> : null}
        <OutcomeNotice outcome={outcome} focusRef={form.outcomeRef} onDismiss={() => setOutcome(null)} />
        <form className="staff-form" onSubmit={submit} noValidate aria-labelledby="bans-heading">
          <Field id={BAN_FIELD_IDS.userId} label="ROBLOX user id" hint="Digits only, e.g. 123456789" error={errors.userId}>
            {(a11y) => (
              <input
                id={BAN_FIELD_IDS.userId}
                className="input input--short"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
                required
                value={userId}
                onChange={(e) => setUserId(e.target.value)}
                {...a11y}
              />
            )}
          </Field>
          <Field id={BAN_FIELD_IDS.reason} label="Reason for the ban" error={errors.reason}>
            {(a11y) => (
              <textarea
                id={BAN_FIELD_IDS.reason}
                className="textarea"
                rows={2}
                required
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                {...a11y}
              />
            )}
          </Field>
          <div className="staff-actions">
            <button type="submit" className="button button--warning" disabled={busy} aria-busy={busy || undefined}>
              Ban User
            </button>
          </div>
        </form>
        <ConfirmDialog
          open={unbanning !== null}
          title={STAFF_TEXTS.unbanTitle}
          message={`Unban user ${unbanning?.user_id ?? ''}? They will be able to create petitions again.`}
          confirmLabel="Unban User"
          busy={busy}
          onConfirm={() => void unban()}
          onCancel={() => setUnbanning(null)}
        />
      </section>
      <section className="staff-danger__item" aria-labelledby="banned-users-heading">
        <h3 className="heading-s" id="banned-users-heading">
          Banned Users
        </h3>
        {bansFailed ? (
          <Notice tone="error">
            <p>{STAFF_TEXTS.bansLoadFailed}</p>
          </Notice>
        ) : null}
        {bans === null && !bansFailed ? <p>Loading banned users...</p> : null}
        {bans && bans.length === 0 ? <p>No users are banned.</p> : null}
        {bans && bans.length > 0 ? (
          <ul className="ban-list">
            {bans.map((ban) => (
              <li className="ban-list__item" key={ban.user_id}>
                <p className="ban-list__who">
                  <strong>User {ban.user_id}</strong>
                </p>
                <p>Reason: {ban.reason}</p>
                <p className="hint">
                  Banned by {ban.banned_by} on {formatDateTime(ban.banned_at)}
                </p>
                <button
                  type="button"
                  className="button button--secondary"
                  disabled={busy}
                  onClick={() => setUnbanning(ban)}
                >
                  Unban<span className="visually-hidden"> user {ban.user_id}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}
