/** Site header: logo and title, navigation, and the account area (login or the signed-in user). */
import { Suspense, lazy } from 'react';
import { useLocation } from 'react-router-dom';
import { Link, NavLink } from './Link.tsx';
import { useSession } from '../stores/index.ts';
import { Avatar } from './Avatar.tsx';

export const LOGIN_LABEL = 'Login with ROBLOX';
export const CONNECTING_LABEL = 'Connecting...';

// Only signed-in members see it, so the account block (notifications button, avatar, staff links) is a chunk
// of its own: a visitor's first download does not carry it (docs/operations.md#javascript-weight).
const MemberAccount = lazy(() => import('./MemberAccount.tsx').then((m) => ({ default: m.MemberAccount })));

function Crown() {
  return (
    <svg className="header__logo" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <path d="M5 24h22v3H5zM5 21l2.5-11 5 5.5L16 6l3.5 9.5 5-5.5L27 21z" fill="currentColor" />
    </svg>
  );
}

export function LoginButton({
  className = 'button button--header button--login',
  pending = false,
}: {
  className?: string;
  /** Shown as busy whatever the session says (the member's block is on its way). */
  pending?: boolean;
}) {
  const connecting = useSession((s) => s.connecting);
  const loading = useSession((s) => s.status === 'loading');
  const login = useSession((s) => s.login);
  const location = useLocation();
  const busy = pending || connecting || loading;
  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      aria-busy={busy || undefined}
      onClick={() => void login(`${location.pathname}${location.search}`)}
    >
      {busy ? CONNECTING_LABEL : LOGIN_LABEL}
    </button>
  );
}

function AccountArea() {
  const user = useSession((s) => s.user);
  if (!user) return <LoginButton />;
  const name = user.displayName || user.username;
  // Until the member's block is there (a moment after the session answers) the button stays 'Connecting...'.
  // The avatar is drawn here: the signers list of a petition's page shares its code, which stays in the
  // first download rather than becoming a chunk of its own.
  return (
    <Suspense fallback={<LoginButton pending />}>
      <MemberAccount user={user} name={name} avatar={<Avatar src={user.avatar} name={name} size={36} />} />
    </Suspense>
  );
}

/** "My petitions" joins the navigation once someone is signed in. */
function MyPetitionsLink() {
  const signedIn = useSession((s) => s.user !== null);
  if (!signedIn) return null;
  return (
    <li>
      <NavLink to="/my-petitions">My petitions</NavLink>
    </li>
  );
}

export function Header() {
  return (
    <header className="header">
      <div className="phase-banner">
        <p className="page-width">
          <strong className="phase-tag">Community site</strong> Not affiliated with the UK Government or UK Parliament.
        </p>
      </div>
      <div className="page-width header__inner">
        <Link to="/" className="header__brand">
          <Crown />
          <span className="header__title">
            Petitions
            <span className="header__subtitle">UK Government and Parliament</span>
          </span>
        </Link>
        {/* A box of fixed size whatever the session state, matching the one in index.html's shell. */}
        <div className="header__account">
          <AccountArea />
        </div>
      </div>
      <nav className="header__nav" aria-label="Main">
        <ul className="page-width header__nav-list">
          <li>
            <NavLink to="/" end>
              Home
            </NavLink>
          </li>
          <li>
            <NavLink to="/petitions" end>
              All petitions
            </NavLink>
          </li>
          <li>
            <NavLink to="/create-petition">Start a petition</NavLink>
          </li>
          <MyPetitionsLink />
        </ul>
      </nav>
    </header>
  );
}
