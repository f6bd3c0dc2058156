/**
 * The sign / remove button of a petition, or why the viewer cannot sign (docs/rules.md#signing). A closed
 * petition's notice and a visitor's login button are drawn here; a signed-in member's part (the button that
 * signs, the refusals, the errors) is a chunk of its own, MemberSign.tsx, which a visitor does not download.
 */
import { Suspense, lazy } from 'react';
import { useLocation } from 'react-router-dom';
import type { PetitionDetail } from '../../../src-shared/domain/schemas.ts';
import { CLOSURE_NOTICE } from '../../../src-shared/domain/closure-messages.ts';
import { useSession } from '../../stores/index.ts';
import { SIGN_TEXT } from './signTexts.ts';

/** Started as soon as the session names a member (PetitionDetailPage.tsx), so it is there with the petition. */
export const loadMemberSign = () => import('./MemberSign.tsx');
const MemberSign = lazy(loadMemberSign);

export interface SignSectionProps {
  petition: PetitionDetail;
  /** Called with the server's new count and signed state; the page then reloads the petition. */
  onSigned: (result: { signatures: number; signed: boolean }) => void;
}

export function SignSection({ petition, onSigned }: SignSectionProps) {
  const user = useSession((s) => s.user);
  const login = useSession((s) => s.login);
  const connecting = useSession((s) => s.connecting);
  const location = useLocation();

  if (petition.status === 'closed') {
    return (
      <div className="sign sign--closed">
        <p className="sign__closed-title">{CLOSURE_NOTICE.noMoreSignatures}</p>
        <p>{CLOSURE_NOTICE.noMoreSignaturesDetail}</p>
      </div>
    );
  }

  if (!user) {
    return (
      <div className="sign">
        <button
          type="button"
          className="button button--start"
          disabled={connecting}
          onClick={() => void login(`${location.pathname}${location.search}`)}
        >
          {connecting ? 'Connecting...' : SIGN_TEXT.login}
        </button>
      </div>
    );
  }

  return (
    <Suspense fallback={<div className="sign" aria-busy="true" />}>
      <MemberSign petition={petition} onSigned={onSigned} />
    </Suspense>
  );
}
