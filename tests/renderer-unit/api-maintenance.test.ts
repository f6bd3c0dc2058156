import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../src-shared/api/client.ts';
import { isMaintenanceError, maintenanceAwareFetch, onMaintenanceAnswer } from '../../src-renderer/services/api.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('maintenance-aware fetch', () => {
  it('announces 503 Site Under Maintenance and still passes the error to the caller', async () => {
    const listener = vi.fn();
    const off = onMaintenanceAnswer(listener);
    const client = createApiClient({
      fetch: maintenanceAwareFetch(async () =>
        json(503, { type: 'about:blank', title: 'Unavailable', status: 503, detail: 'Site Under Maintenance' }),
      ),
    });
    const error = await client.getHomeStats().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isMaintenanceError(error)).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    off();
  });

  it('ignores other 503s and other statuses', async () => {
    const listener = vi.fn();
    const off = onMaintenanceAnswer(listener);
    const client = createApiClient({
      fetch: maintenanceAwareFetch(async () => new Response('busy', { status: 503 })),
    });
    await client.getHomeStats().catch(() => undefined);
    const ok = createApiClient({ fetch: maintenanceAwareFetch(async () => json(200, { created: 1 })) });
    await ok.getHomeStats();
    expect(listener).not.toHaveBeenCalled();
    off();
  });
});
