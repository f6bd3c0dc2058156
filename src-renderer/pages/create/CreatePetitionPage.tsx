/**
 * Create petition (docs/rules.md#creating-a-petition): 'Account Required', 'Permission Required' and 'Parliament Not In
 * Session' states, the guidelines, and for whoever may create the form (CreateForm.tsx).
 */
import { Suspense, lazy } from 'react';
import { canCreatePetition } from '../../../src-shared/rules/permissions.ts';
import { useSession, useSite } from '../../stores/index.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { LoginButton } from '../../components/Header.tsx';
import { CREATE_TEXT } from './createTexts.ts';

// The form (its fields, rules, counters and error summary) is for members who may create while Parliament is in
// session: a chunk of its own, so a visitor, who is asked to sign in, does not download it (docs/operations.md#javascript-weight).
const CreateForm = lazy(() => import('./CreateForm.tsx').then((m) => ({ default: m.CreateForm })));

function Guidelines() {
  return (
    <aside className="guidelines" aria-labelledby="guidelines-heading">
      <h2 className="heading-m" id="guidelines-heading">
        Guidelines
      </h2>
      <ul className="list list--bullet">
        <li>Ask the Government or Parliament of the group to take one clear, specific action.</li>
        <li>Check the list of petitions first: a similar petition may already exist, and you can sign that instead.</li>
        <li>Be respectful. Petitions that are offensive, abusive, or break ROBLOX Community Standards are removed.</li>
        <li>Do not include personal information about yourself or anyone else.</li>
        <li>Petitions are about our community on ROBLOX, not the real UK Government or Parliament.</li>
        <li>{CREATE_TEXT.firstSigner}</li>
        <li>At 10 signatures the Government responds; at 20 signatures the petition is considered for a debate in Parliament.</li>
        <li>Petitions with fewer than 10 signatures after 3 weeks close automatically, as do all petitions at the end of a parliamentary term.</li>
      </ul>
    </aside>
  );
}

function StateNotice({ title, text, tone = 'warning' }: { title: string; text: string; tone?: 'warning' | 'error' }) {
  return (
    <Notice tone={tone}>
      <p>
        <strong>{title}</strong> {text}
      </p>
    </Notice>
  );
}

export function CreatePetitionPage() {
  useDocumentTitle(CREATE_TEXT.heading);
  const user = useSession((s) => s.user);
  const sessionLoading = useSession((s) => s.status === 'loading');
  const inSession = useSite((s) => s.inSession);

  let body;
  if (sessionLoading) body = <Loading text="Checking your account..." />;
  else if (!user) {
    body = (
      <>
        <StateNotice title={CREATE_TEXT.accountRequiredTitle} text={CREATE_TEXT.accountRequired} />
        <LoginButton className="button" />
      </>
    );
  } else if (!canCreatePetition(user)) {
    body = <StateNotice title={CREATE_TEXT.permissionTitle} text={CREATE_TEXT.permission} tone="error" />;
  } else if (inSession === null) body = <Loading text="Checking Parliament Status..." />;
  else if (!inSession) {
    body = (
      <>
        <StateNotice title={CREATE_TEXT.notInSessionTitle} text={CREATE_TEXT.notInSession} tone="error" />
        <p>{CREATE_TEXT.notInSessionExplanation}</p>
      </>
    );
  } else {
    body = (
      <Suspense fallback={<Loading text={CREATE_TEXT.loadingForm} />}>
        <CreateForm />
      </Suspense>
    );
  }

  return (
    <div className="create-layout">
      <div className="create-layout__main">
        <h1 className="heading-xl">{CREATE_TEXT.heading}</h1>
        {body}
      </div>
      <Guidelines />
    </div>
  );
}
