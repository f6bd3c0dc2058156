/**
 * /account: the signed-in member's account, where they delete their data (docs/privacy.md#deleting-your-data).
 * They type the confirmation word; the server checks it again, then signs them out everywhere.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from '../../navigation.ts';
import { Link } from '../../components/Link.tsx';
import { ACCOUNT_DELETION_CONFIRMATION, DELETED_MEMBER_NAME, isDeletionConfirmed, PRIVACY_ERRORS } from '../../../src-shared/domain/privacy-constants.ts';
import { Field } from '../../components/Field.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { useRetention } from '../../hooks/useRetention.ts';
import { apiCaller, errorDetail } from '../../services/apiCaller.ts';
import { apiDeleteMyData } from '../../../src-shared/api/member-calls.ts';
import { forgetPushSubscription } from '../../stores/session.ts';
import { useFlash, useSession } from '../../stores/index.ts';
import { SignInPrompt } from './SignInPrompt.tsx';

export const ACCOUNT_TEXTS = {
  title: 'Your account',
  deleteHeading: 'Delete your data',
  confirmLabel: `Type ${ACCOUNT_DELETION_CONFIRMATION} to confirm`,
  deleteButton: 'Delete my data',
  deleting: 'Deleting...',
  deleted: 'Your data has been deleted and you have been signed out everywhere.',
  failed: 'Your data could not be deleted. Please try again.',
  signInTitle: 'Sign in to manage your account',
  signInText: 'Sign in with ROBLOX to see your account and delete your data.',
} as const;

const CONFIRM_ID = 'delete-data-confirmation';

function DeleteDataForm() {
  const navigate = useNavigate();
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const retention = useRetention();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The same check as the server's, so a typo is caught before anything is sent.
    if (!isDeletionConfirmed(confirmation)) {
      setError(PRIVACY_ERRORS.deletionConfirmation);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await apiDeleteMyData(apiCaller, ACCOUNT_DELETION_CONFIRMATION);
      useSession.setState({ user: null, error: null });
      forgetPushSubscription();
      useFlash.getState().push({ tone: 'success', text: ACCOUNT_TEXTS.deleted, path: '/' });
      navigate('/');
    } catch (failure) {
      setError(errorDetail(failure, ACCOUNT_TEXTS.failed));
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="delete-data-heading">
      <h2 className="heading-m" id="delete-data-heading">
        {ACCOUNT_TEXTS.deleteHeading}
      </h2>
      <p>Deleting your data cannot be undone. It:</p>
      <ul className="list list--bullet">
        <li>signs you out on every device;</li>
        <li>removes your signatures from petitions that are still open (their counts go down);</li>
        <li>keeps your signatures on closed petitions in their counts, without your name (shown as &quot;{DELETED_MEMBER_NAME}&quot;);</li>
        <li>keeps the petitions you created, shown as created by &quot;{DELETED_MEMBER_NAME}&quot;;</li>
        <li>deletes your notifications, their settings and your web push devices.</li>
      </ul>
      <p>
        You may sign in again later: you start afresh. Even if you do nothing, signers of a petition are anonymised{' '}
        {retention.signerMonths} months after it closes. See the <Link to="/privacypolicy">privacy policy</Link>.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby="delete-data-heading">
        <Field id={CONFIRM_ID} label={ACCOUNT_TEXTS.confirmLabel} error={error}>
          {(a11y) => (
            <input
              id={CONFIRM_ID}
              className="input input--short"
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={confirmation}
              onChange={(e) => setConfirmation(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <button type="submit" className="button button--warning" disabled={busy} aria-busy={busy || undefined}>
          {busy ? ACCOUNT_TEXTS.deleting : ACCOUNT_TEXTS.deleteButton}
        </button>
      </form>
    </section>
  );
}

export function AccountPage() {
  useDocumentTitle(ACCOUNT_TEXTS.title);
  const user = useSession((s) => s.user);
  const status = useSession((s) => s.status);
  return (
    <div className="page-account">
      <h1 className="heading-xl">{ACCOUNT_TEXTS.title}</h1>
      {user ? (
        <>
          <p>
            Signed in as <strong>{user.displayName || user.username}</strong> (ROBLOX user {user.id}).
          </p>
          <DeleteDataForm />
        </>
      ) : status === 'loading' ? null : (
        <SignInPrompt title={ACCOUNT_TEXTS.signInTitle} text={ACCOUNT_TEXTS.signInText} />
      )}
    </div>
  );
}
