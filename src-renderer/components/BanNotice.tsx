/** Tells a banned user, before any form, that they may not create petitions, with the administrator's reason. */
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import { Notice } from './Notice.tsx';

export function BanNotice({ reason }: { reason: string | null }) {
  return (
    <Notice tone="error" live="status" className="ban-notice">
      <p>
        <strong>{SITE_ERRORS.banned}.</strong>
      </p>
      {reason ? <p>Reason: {reason}</p> : null}
    </Notice>
  );
}
