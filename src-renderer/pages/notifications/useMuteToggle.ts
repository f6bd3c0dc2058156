/**
 * "Stop updates for this petition" / "Resume updates": one call, the petition's new state, and the
 * member's unread count afterwards (muting takes its events out of the count).
 */
import { useState } from 'react';
import { api } from '../../services/api.ts';
import { useLiveStream } from '../../stores/index.ts';

export function useMuteToggle(onChanged: (petitionId: number, muted: boolean) => void) {
  const [busy, setBusy] = useState<number | null>(null);
  const [failed, setFailed] = useState<number | null>(null);

  async function toggle(petitionId: number, mute: boolean): Promise<void> {
    setBusy(petitionId);
    setFailed(null);
    try {
      const state = mute ? await api.mutePetition(petitionId) : await api.unmutePetition(petitionId);
      onChanged(petitionId, state.muted);
      const { unread } = await api.getUnreadNotificationCount();
      useLiveStream.getState().setUnread(unread);
    } catch {
      setFailed(petitionId);
    } finally {
      setBusy(null);
    }
  }

  return { busy, failed, toggle };
}
