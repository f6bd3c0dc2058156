/**
 * How the renderer reaches the API: one caller for every call (src-shared/api/caller.ts), whose fetch
 * notices "503 Site Under Maintenance" answers so the maintenance screen appears as soon as any call is
 * refused, without every caller checking. Pages import the calls they make one by one
 * (`apiGetPetition(apiCaller, id)`), so a page's download carries only those (docs/operations.md#javascript-weight);
 * the staff screens use the whole client over the same caller (api.ts).
 */
import { ApiError, NetworkError, createApiCaller } from '../../src-shared/api/caller.ts';
import type { ApiCaller } from '../../src-shared/api/caller.ts';
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import { platform } from '../platform/index.ts';

export { ApiError, NetworkError };
export type { ApiCaller };

type MaintenanceListener = () => void;
const maintenanceListeners = new Set<MaintenanceListener>();

/** Called whenever the server answers a call with 503 'Site Under Maintenance'. Returns an unsubscribe. */
export function onMaintenanceAnswer(listener: MaintenanceListener): () => void {
  maintenanceListeners.add(listener);
  return () => maintenanceListeners.delete(listener);
}

export function isMaintenanceError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503 && error.detail === SITE_ERRORS.maintenance;
}

/** Wraps a fetch so 503 maintenance answers notify the listeners; the response is passed on untouched. */
export function maintenanceAwareFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.status === 503) {
      try {
        const body: unknown = await response.clone().json();
        if (body && typeof body === 'object' && (body as { detail?: unknown }).detail === SITE_ERRORS.maintenance) {
          for (const listener of maintenanceListeners) listener();
        }
      } catch {
        // not JSON: an ordinary 503, nothing to announce
      }
    }
    return response;
  };
}

let transport: typeof fetch = (input, init) => fetch(input, init);

/**
 * Replaces how the renderer reaches the server. The staff console sets a transport that reads through its
 * main process (`data:read`), so the web app's staff screens work there unchanged.
 */
export function setApiTransport(next: typeof fetch): void {
  transport = next;
}

export const apiCaller: ApiCaller = createApiCaller({
  baseUrl: platform.apiBaseUrl,
  fetch: maintenanceAwareFetch((input, init) => transport(input, init)),
});

/** The problem's text for a failed call, or the fallback for network and unknown failures. */
export function errorDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  return fallback;
}
