import type { ConsoleApi } from '../../src-shared/console/ipc-contract.ts';

/**
 * What differs between the web app and the (later) Electron staff console. Everything that touches
 * the host environment goes through this interface so screens stay platform-neutral.
 */
export interface Platform {
  readonly kind: 'web' | 'desktop';
  /** Prefix for API calls; '' means the same origin that served the app. */
  readonly apiBaseUrl: string;
  /** Sends the user to the sign-in page of the identity provider. */
  openSignIn(authUrl: string): void;
  /** Reloads the whole application (the fatal-error screen's Reload Page). */
  reload(): void;
  /** Copies text to the clipboard; rejects when the platform refuses. */
  copyText(text: string): Promise<void>;
  /**
   * A desktop notification, for news while the window is not focused. The console asks its main
   * process (`platform:notify`: the system's notifications, or console:browser's page); the web
   * shows the browser's own when the user allowed them, and otherwise nothing.
   */
  notify(title: string, body: string): Promise<void>;
  /** Absolute address of an in-app path, for copy-link and sharing. */
  absoluteUrl(path: string): string;
  /**
   * Where to come back to after sign-in. The web keeps it for the tab only (sessionStorage):
   * it is navigation state, not user data.
   */
  rememberReturnTo(path: string | null): void;
  takeReturnTo(): string | null;
  /** The staff console's typed bridge to its main process (desktop only; the web has none). */
  readonly console?: ConsoleApi;
}
