/**
 * A signed-in member's part of a petition's sign section (docs/rules.md#signing): the button that signs or
 * removes the signature, or why this member cannot sign. A chunk of its own (SignSection.tsx).
 */
import { useState } from 'react';
import { canSign } from '../../../src-shared/rules/permissions.ts';
import { ApiError } from '../../../src-shared/api/caller.ts';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiSignPetition, apiUnsignPetition } from '../../../src-shared/api/visitor-calls.ts';
import { useSession } from '../../stores/index.ts';
import { Notice } from '../../components/Notice.tsx';
import { SIGN_TEXT } from './signTexts.ts';
import { signButtonLabel, signErrorMessage } from './signing.ts';
import type { SignSectionProps } from './SignSection.tsx';

export default function MemberSign({ petition, onSigned }: SignSectionProps) {
  const user = useSession((s) => s.user);
  const [busy, setBusy] = useState<'sign' | 'unsign' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');

  if (!canSign(user)) {
    return (
      <div className="sign">
        <Notice tone="warning">
          <p>{SIGN_TEXT.citizensOnly}</p>
        </Notice>
      </div>
    );
  }

  const signed = petition.signed_by_viewer;
  // The server's refusal for this viewer (account too young, signature invalidated), said before they try.
  const refusal = signed ? null : petition.viewer_signing_refusal;
  if (refusal) {
    return (
      <div className="sign">
        <Notice tone="warning">
          <p>{refusal}</p>
        </Notice>
        <p className="sign__status" role="status">
          {done}
        </p>
      </div>
    );
  }
  const toggle = async () => {
    if (busy) return;
    const signing = !signed;
    setBusy(signing ? 'sign' : 'unsign');
    setError(null);
    setDone('');
    try {
      const result = signing ? await apiSignPetition(apiCaller, petition.id) : await apiUnsignPetition(apiCaller, petition.id);
      setDone(result.signed ? SIGN_TEXT.signed : SIGN_TEXT.removed);
      onSigned(result);
    } catch (caught) {
      setError(signErrorMessage(caught, signing));
      if (caught instanceof ApiError && (caught.status === 401 || caught.status === 403)) {
        void useSession.getState().recheck();
      }
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="sign">
      <button
        type="button"
        className={signed ? 'button button--secondary' : 'button button--start'}
        onClick={toggle}
        // Not `disabled`: disabling the focused button would drop keyboard focus to the page.
        aria-disabled={busy !== null || undefined}
        aria-busy={busy !== null || undefined}
      >
        {signButtonLabel(signed, busy)}
      </button>
      <p className="sign__status" role="status">
        {done}
      </p>
      {error ? (
        <Notice tone="error" live="alert">
          <p>{error}</p>
        </Notice>
      ) : null}
    </div>
  );
}
