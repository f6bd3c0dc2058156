/** Console-wide commands shared by buttons, shortcuts and the palette. */
import type { ConsoleStores } from './state/stores.ts';
import { errorMessage } from './consoleApi.ts';

export async function syncNow(stores: ConsoleStores): Promise<void> {
  try {
    await stores.outbox.getState().syncNow();
    const { queued, sending, attention } = stores.outbox.getState().summary;
    stores.toasts.getState().push('info', `Sync requested: ${queued} queued, ${sending} sending, ${attention} need attention.`);
  } catch (error) {
    stores.toasts.getState().push('error', `Sync failed: ${errorMessage(error)}`);
  }
}
