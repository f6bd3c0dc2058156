/**
 * Unusual signing as it happens (docs/integrity.md#unusual-signing): the server's figures per
 * petition, asked for again every few seconds while the screen is open.
 */
import { useEffect, useState } from 'react';
import { UNUSUAL_SIGNING_REFRESH_MS } from '../../../src-shared/domain/constants.ts';
import type { UnusualSigning as Figures } from '../../../src-shared/domain/integrity-schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { UNUSUAL_SIGNING_RULE_LABELS } from '../../../src-shared/rules/unusual-signing.ts';
import { Notice } from '../../components/Notice.tsx';
import { api } from '../../services/api.ts';
import { INTEGRITY_TEXTS, youngShare } from './integrityView.ts';

export function UnusualSigningTable({ onInvalidate }: { onInvalidate: (petitionId: number) => void }) {
  const [figures, setFigures] = useState<Figures | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let stopped = false;
    const load = async () => {
      try {
        const next = await api.getUnusualSigning();
        if (!stopped) {
          setFigures(next);
          setFailed(false);
        }
      } catch {
        if (!stopped) setFailed(true);
      }
    };
    void load();
    const timer = setInterval(() => void load(), UNUSUAL_SIGNING_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);

  return (
    <section className="staff-danger__item" aria-labelledby="unusual-heading">
      <h3 className="heading-s" id="unusual-heading">
        {INTEGRITY_TEXTS.unusualHeading}
      </h3>
      <p>{INTEGRITY_TEXTS.unusualIntro}</p>
      {failed ? (
        <Notice tone="error">
          <p>{INTEGRITY_TEXTS.unusualFailed}</p>
        </Notice>
      ) : null}
      {figures ? (
        <p className="hint">
          Counted up to {figures.countedUpTo ? formatDateTime(figures.countedUpTo) : 'now'}. A burst is {figures.settings.burstSignatures} signatures within a
          minute; young accounts are younger than {figures.settings.youngAccountDays} days.
          {figures.settings.minAccountAgeDays ? ` Accounts younger than ${figures.settings.minAccountAgeDays} days may not sign.` : ''}
        </p>
      ) : failed ? null : (
        <p>Loading the figures...</p>
      )}
      {figures && figures.petitions.length === 0 ? <p>{INTEGRITY_TEXTS.unusualEmpty}</p> : null}
      {figures && figures.petitions.length > 0 ? (
        <div className="integrity-table">
          <table className="table">
            <caption className="visually-hidden">Unusual signing by petition</caption>
            <thead>
              <tr>
                <th scope="col">Petition</th>
                <th scope="col">Signatures</th>
                <th scope="col">Last hour</th>
                <th scope="col">Earlier rate an hour</th>
                <th scope="col">Young accounts, last hour</th>
                <th scope="col">Most in a minute</th>
                <th scope="col">Rules tripped</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {figures.petitions.map((petition) => (
                <tr key={petition.petitionId}>
                  <th scope="row">
                    #{petition.petitionId} {petition.title}
                    <span className="hint"> ({statusLabel(petition.status)})</span>
                  </th>
                  <td>{petition.signatures}</td>
                  <td>{petition.lastHour}</td>
                  <td>{petition.earlierHourlyRate}</td>
                  <td>
                    {youngShare(petition)}
                    {petition.firstSigners.map((entry) => (
                      <span className="hint" key={entry.threshold}>
                        {' '}
                        {entry.young} of the first {entry.threshold} young.
                      </span>
                    ))}
                  </td>
                  <td>{petition.peakMinute}</td>
                  <td>
                    {petition.rules.length ? (
                      <ul className="integrity-rules">
                        {petition.rules.map((rule) => (
                          <li key={rule}>{UNUSUAL_SIGNING_RULE_LABELS[rule]}</li>
                        ))}
                      </ul>
                    ) : (
                      'None'
                    )}
                    {petition.alerts.length ? <span className="hint"> Alerted {formatDateTime(petition.alerts[petition.alerts.length - 1]!.raisedAt)}.</span> : null}
                  </td>
                  <td>
                    <button type="button" className="button button--secondary" onClick={() => onInvalidate(petition.petitionId)}>
                      Review signatures<span className="visually-hidden"> of petition {petition.petitionId}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
