/**
 * The console's session: who is signed in and whether a sign-in or sign-out is under way. The main
 * process owns the session; this store mirrors it from `session:get` and `session:changed`.
 */
import { create } from 'zustand';
import type { ConsoleApi, ConsoleSession } from '../../../src-shared/console/ipc-contract.ts';
import { call, errorMessage } from '../consoleApi.ts';

export interface ConsoleSessionState {
  session: ConsoleSession | null;
  busy: boolean;
  error: string | null;
  load(): Promise<void>;
  signIn(): Promise<void>;
  signOut(discardQueued?: boolean): Promise<void>;
}

export function createConsoleSessionStore(api: ConsoleApi, initial: ConsoleSession | null = null) {
  const store = create<ConsoleSessionState>()((set) => ({
    session: initial,
    busy: false,
    error: null,
    async load() {
      try {
        set({ session: await call(api, 'session:get', {}), error: null });
      } catch (error) {
        set({ error: errorMessage(error) });
      }
    },
    async signIn() {
      set({ busy: true, error: null });
      try {
        set({ session: await call(api, 'session:signIn', {}) });
      } catch (error) {
        set({ error: errorMessage(error) });
      } finally {
        set({ busy: false });
      }
    },
    async signOut(discardQueued = false) {
      set({ busy: true, error: null });
      try {
        set({ session: await call(api, 'session:signOut', { discardQueued }) });
      } catch (error) {
        set({ error: errorMessage(error) });
      } finally {
        set({ busy: false });
      }
    },
  }));
  api.on('session:changed', (session) => store.setState({ session }));
  return store;
}
