/**
 * The whole API client of the renderer, for the staff screens (lazy chunks): every call as a method of
 * `api`, over the same caller as the public pages' calls (apiCaller.ts), so the console's transport and
 * the maintenance notice apply to both. Public pages import their calls one by one instead, and never
 * this module (tests/renderer-unit/bundle-budget.test.ts checks it).
 */
import { createApiClient } from '../../src-shared/api/client.ts';
import type { ApiClient } from '../../src-shared/api/client.ts';
import { apiCaller } from './apiCaller.ts';

export {
  ApiError,
  NetworkError,
  errorDetail,
  isMaintenanceError,
  maintenanceAwareFetch,
  onMaintenanceAnswer,
  setApiTransport,
} from './apiCaller.ts';
export type { ApiClient };

export const api: ApiClient = createApiClient(apiCaller);
