/**
 * Notices under the top bar: actions queued by another staff member (never sent with this
 * account's token), and an update ready to install (restart only when the user says so).
 */
import { useEffect, useState } from 'react';
import type { UpdateStatus } from '../../../src-shared/console/ipc-contract.ts';
import { call, errorMessage } from '../consoleApi.ts';
import { useStores } from '../state/context.tsx';

export function SessionNotices() {
  const stores = useStores();
  const others = stores.session((s) => s.session?.queuedForOthers ?? null);
  const [update, setUpdate] = useState<UpdateStatus | null>(null);

  useEffect(() => {
    void call(stores.api, 'update:status', {}).then(setUpdate, () => undefined);
    return stores.api.on('update:changed', setUpdate);
  }, [stores]);

  const waiting = (others ?? []).reduce((sum, o) => sum + o.count, 0);
  return (
    <>
      {waiting > 0 ? (
        <p className="console-notice" role="status">
          {waiting} {waiting === 1 ? 'action' : 'actions'} queued by another staff member on this computer{' '}
          {waiting === 1 ? 'waits' : 'wait'} for them to sign in here; they are never sent with your account.
        </p>
      ) : null}
      {update?.state === 'ready' ? (
        <p className="console-notice" role="status">
          Version {update.version} is ready.{' '}
          <button
            type="button"
            className="console-link-button"
            onClick={() =>
              void call(stores.api, 'update:restart', {}).catch((error: unknown) =>
                stores.toasts.getState().push('error', errorMessage(error)),
              )
            }
          >
            Restart to update
          </button>
        </p>
      ) : null}
    </>
  );
}
