/**
 * "Stop updates for this petition" / "Resume updates": one call, the petition's new state, and the
 * member's unread count afterwards (muting takes its events out of the count).
 */
import { useState } from 'react';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiGetUnreadNotificationCount, apiMutePetition, apiUnmutePetition } from '../../../src-shared/api/member-calls.ts';
import { useLiveStream } from '../../stores/index.ts';

export function useMuteToggle(onChanged: (petitionId: number, muted: boolean) => void) {
  const [busy, setBusy] = useState<number | null>(null);
  const [failed, setFailed] = useState<number | null>(null);

  async function toggle(petitionId: number, mute: boolean): Promise<void> {
    setBusy(petitionId);
    setFailed(null);
    try {
      const state = mute ? await apiMutePetition(apiCaller, petitionId) : await apiUnmutePetition(apiCaller, petitionId);
      onChanged(petitionId, state.muted);
      const { unread } = await apiGetUnreadNotificationCount(apiCaller);
      useLiveStream.getState().setUnread(unread);
    } catch {
      setFailed(petitionId);
    } finally {
      setBusy(null);
    }
  }

  return { busy, failed, toggle };
}
