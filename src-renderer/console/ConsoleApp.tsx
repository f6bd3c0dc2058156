/**
 * The staff console: who is signed in decides the screen (sign in, turned away, or the workspace).
 * The workspace keeps the connection state, the outbox badge and the navigation on every screen
 * (those come with the workspace frame's chunk, workspaceFrame.tsx); the panels and the background work come
 * once the first queue is interactive (workspaceBackground.tsx).
 */
import { Suspense, useEffect } from 'react';
import { roleLabel } from '../../src-shared/rules/roles.ts';
import { isConsoleUser, NOT_STAFF_TEXT, visibleQueues } from './queues.ts';
import { StoresProvider, useStores } from './state/context.tsx';
import type { ConsoleStores } from './state/stores.ts';
import { useUser } from './state/selectors.ts';
import { useConsoleEffects } from './useConsoleEffects.ts';
import { useGlobalKeys } from './useGlobalKeys.ts';
import { QueueScreen } from './screens/QueueScreen.tsx';
import {
  LazyAdminScreen as AdminScreen,
  LazyBulkStatusScreen as BulkStatusScreen,
  LazyModerationCaseScreen as ModerationCaseScreen,
  LazyModerationQueueScreen as ModerationQueueScreen,
  LazyPetitionScreen as PetitionScreen,
  AFTER_FIRST_SCREEN_MS,
  startAfterFirstScreen,
  useWorkspaceBackground,
  useWorkspaceFrame,
} from './lazyScreens.ts';
import { HomeScreen } from './screens/HomeScreen.tsx';
import { syncNow } from './actions.ts';

export function ConsoleApp({ stores }: { stores: ConsoleStores }) {
  return (
    <StoresProvider stores={stores}>
      <ConsoleRoot />
    </StoresProvider>
  );
}

function ConsoleRoot() {
  const { session } = useStores();
  const loaded = session((s) => s.session !== null);
  const error = session((s) => s.error);
  const user = useUser();

  useEffect(() => {
    void session.getState().load();
  }, [session]);

  if (!loaded) {
    return (
      <main className="console-centre" id="main">
        <h1 className="heading-l">Petitions staff console</h1>
        <p role="status">{error ? `The console could not start: ${error}` : 'Starting…'}</p>
      </main>
    );
  }
  if (!user) return <SignInScreen />;
  if (!isConsoleUser(user)) return <NotStaffScreen />;
  return <Workspace />;
}

function SignInScreen() {
  const { session } = useStores();
  const busy = session((s) => s.busy);
  const error = session((s) => s.error);
  return (
    <main className="console-centre" id="main">
      <h1 className="heading-l">Petitions staff console</h1>
      <p className="body-l">Sign in with your ROBLOX account to work on petitions.</p>
      {error ? (
        <p className="console-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="button" className="button" disabled={busy} onClick={() => void session.getState().signIn()}>
        {busy ? 'Waiting for the browser…' : 'Sign in with ROBLOX'}
      </button>
    </main>
  );
}

function NotStaffScreen() {
  const { session } = useStores();
  const user = useUser();
  return (
    <main className="console-centre" id="main">
      <h1 className="heading-l">{NOT_STAFF_TEXT}</h1>
      <p className="body-l">
        You are signed in as {user?.displayName} ({user ? roleLabel(user) : ''}). Citizens use the petitions website
        instead.
      </p>
      <button type="button" className="button button--secondary" onClick={() => void session.getState().signOut()}>
        Sign out
      </button>
    </main>
  );
}

function Workspace() {
  const stores = useStores();
  const user = useUser();
  const screen = stores.nav((s) => s.screen);
  const overlay = stores.nav((s) => s.overlay);
  // Navigation, top bar state, filters and toasts: a chunk requested now (lazyScreens.ts).
  const frame = useWorkspaceFrame();
  // Background work, colleagues' notes and the panels: a chunk requested once the first queue is interactive.
  const background = useWorkspaceBackground();
  useConsoleEffects();
  useGlobalKeys();

  // The first screen is the first queue this rank may work on.
  useEffect(() => {
    if (stores.nav.getState().screen.name === 'home') {
      const first = visibleQueues(user)[0];
      if (first) stores.nav.getState().go({ name: 'queue', kind: first });
    }
  }, [stores, user]);

  // A first screen that is not a queue (or a queue the member left), a panel asked for, or a queue read that
  // takes long: what follows the first queue starts anyway (lazyScreens.ts). (Home with a queue to land on is
  // not a screen of its own: the effect above moves on to that queue in the same commit.)
  useEffect(() => {
    const landing = screen.name === 'queue' || (screen.name === 'home' && visibleQueues(user).length > 0);
    if (!landing || overlay) startAfterFirstScreen();
  }, [screen.name, overlay, user]);
  useEffect(() => {
    const timer = window.setTimeout(startAfterFirstScreen, AFTER_FIRST_SCREEN_MS);
    return () => window.clearTimeout(timer);
  }, []);

  const close = () => stores.nav.getState().open(null);
  return (
    <div className="console">
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="console-top">
        <p className="console-top__title">Petitions staff console</p>
        {frame ? <frame.ConnectionStatus /> : null}
        <div className="console-top__actions">
          <button type="button" className="button button--secondary console-small" onClick={() => void syncNow(stores)}>
            Sync now
          </button>
          {frame ? <frame.OutboxButton /> : null}
          <button
            type="button"
            className="button button--secondary console-small"
            onClick={() => stores.nav.getState().open('palette')}
            aria-keyshortcuts="Control+K"
          >
            Commands <kbd>Ctrl K</kbd>
          </button>
          {/* Name over office, shortened with an ellipsis when long; the whole on hover. */}
          <span className="console-top__user" title={`${user?.displayName ?? ''} · ${user ? roleLabel(user) : ''}`}>
            <span className="console-top__user-name">{user?.displayName}</span>
            <span className="visually-hidden"> · </span>
            <span className="console-top__user-role">{user ? roleLabel(user) : ''}</span>
          </span>
          {frame ? <frame.SignOutButton /> : null}
        </div>
        {frame ? <frame.SessionNotices /> : null}
      </header>
      <div className="console-body">
        {/* Until its chunk is there, an empty column of the navigation's width keeps the queue in place. */}
        {frame ? <frame.Navigation /> : <div className="console-nav" />}
        <main className="console-main" id="main" tabIndex={-1}>
          {screen.name === 'queue' ? <QueueScreen key={screen.kind} kind={screen.kind} /> : null}
          <Suspense fallback={<p role="status">Loading…</p>}>
            {screen.name === 'petition' ? (
              <PetitionScreen key={`${screen.id}`} id={screen.id} mode={screen.mode} from={screen.from} />
            ) : null}
            {screen.name === 'moderation' ? <ModerationQueueScreen /> : null}
            {screen.name === 'moderationCase' ? <ModerationCaseScreen key={screen.id} id={screen.id} control={screen.control} /> : null}
            {screen.name === 'bulk' ? <BulkStatusScreen /> : null}
            {screen.name === 'admin' ? <AdminScreen key={screen.section} section={screen.section} /> : null}
          </Suspense>
          {screen.name === 'home' ? <HomeScreen /> : null}
        </main>
      </div>
      {background ? <background.Overlays overlay={overlay} onClose={close} /> : null}
      {frame ? <frame.Toasts /> : null}
      {background ? <background.BackgroundWork /> : null}
    </div>
  );
}
