/**
 * Who is signed in. The server's session cookie is the truth; this store only mirrors
 * `GET /api/auth/session` (loaded at start, re-checked on window focus).
 *
 * API (for other screens, e.g. the staff console):
 *   const user = useSession((s) => s.user);         // User | null
 *   const status = useSession((s) => s.status);     // 'loading' until the first answer, then 'ready'
 *   useSession.getState().login(returnTo?)          // goes to the provider's sign-in page
 *   useSession.getState().logout()
 *   useSession.getState().recheck()                 // after a 401/403 elsewhere, or on focus
 *   completeLogin(useSession, api, platform, code, state)   // the provider's callback: signIn.ts
 */
import { create } from 'zustand';
import type { User } from '../../src-shared/domain/schemas.ts';
import { ApiError } from '../../src-shared/api/caller.ts';
import type { ApiClient } from '../../src-shared/api/client.ts';
import type { Platform } from '../platform/types.ts';

export type SessionStatus = 'loading' | 'ready';

export interface SessionState {
  user: User | null;
  status: SessionStatus;
  /** True while the sign-in address is being fetched: the login button reads 'Connecting...'. */
  connecting: boolean;
  /** True while a provider callback is being exchanged for a session ('Completing Sign In': signIn.ts). */
  completing: boolean;
  /** Last sign-in or sign-out failure, for the header's notice. */
  error: string | null;
  load(): Promise<void>;
  recheck(): Promise<void>;
  login(returnTo?: string): Promise<void>;
  logout(): Promise<void>;
  clearError(): void;
}

/**
 * The server removed this session's (or member's) web push devices; the browser drops its
 * subscription too (inline rather than services/webPush.ts, which stays out of the first download).
 */
export function forgetPushSubscription(): void {
  void globalThis.navigator?.serviceWorker
    ?.getRegistration('/')
    .then((registration) => registration?.pushManager.getSubscription())
    .then((subscription) => subscription?.unsubscribe())
    .catch(() => undefined);
}

export type SessionApi = Pick<ApiClient, 'getSession' | 'startSignIn' | 'signOut'>;
export type SessionPlatform = Pick<Platform, 'openSignIn' | 'rememberReturnTo'>;

/** If the page was not left after this long (e.g. a blocked navigation), the button works again. */
export const CONNECTING_RESET_MS = 15_000;
export const LOGIN_FAILED = 'Could not connect to ROBLOX sign-in. Please try again.';
export const LOGOUT_FAILED = 'Could not log out. Please try again.';

export function createSessionStore(api: SessionApi, platform: SessionPlatform) {
  return create<SessionState>()((set, get) => {
    async function fetchUser(): Promise<void> {
      try {
        const session = await api.getSession();
        set({ user: session.user ?? null, status: 'ready' });
      } catch (error) {
        // A 401 or 403 on the user load clears the session (docs/api-conventions.md#sessions); a network blip
        // keeps what we had.
        if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
          set({ user: null, status: 'ready' });
        } else if (error instanceof ApiError && error.status === 503) {
          // Maintenance: non-administrators have no usable session while it is on.
          set({ user: null, status: 'ready' });
        } else {
          set({ status: 'ready' });
        }
      }
    }

    return {
      user: null,
      status: 'loading',
      connecting: false,
      completing: false,
      error: null,
      load: fetchUser,
      recheck: fetchUser,
      async login(returnTo) {
        if (get().connecting) return;
        set({ connecting: true, error: null });
        try {
          platform.rememberReturnTo(returnTo ?? null);
          const { auth_url } = await api.startSignIn(returnTo ? { returnTo } : {});
          platform.openSignIn(auth_url);
          // The page is being left; keep 'Connecting...' until it is gone. A desktop host that
          // opens a separate browser resets the flag when its own flow ends.
          globalThis.setTimeout(() => set({ connecting: false }), CONNECTING_RESET_MS);
        } catch {
          set({ connecting: false, error: LOGIN_FAILED });
        }
      },
      async logout() {
        const user = get().user;
        if (!user) return;
        try {
          await api.signOut(user.id);
          set({ user: null, error: null });
          forgetPushSubscription();
        } catch (error) {
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) set({ user: null });
          else set({ error: LOGOUT_FAILED });
        }
      },
      clearError() {
        set({ error: null });
      },
    };
  });
}

export type SessionStore = ReturnType<typeof createSessionStore>;
