/**
 * The server's daily petition allowance for the signed-in user (3 a day: docs/rules.md#daily-limit). The web app only
 * mirrors `GET /api/petitions/daily-allowance`; it never counts in browser storage. The same answer
 * says whether the user is banned, so pages can say so before the user types.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DailyAllowance } from '../../src-shared/domain/schemas.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiGetDailyAllowance } from '../../src-shared/api/visitor-calls.ts';

export function useDailyAllowance(enabled: boolean) {
  const [allowance, setAllowance] = useState<DailyAllowance | null>(null);
  const [loading, setLoading] = useState(enabled);

  const refresh = useCallback(async () => {
    if (!enabled) return;
    setLoading(true);
    try {
      setAllowance(await apiGetDailyAllowance(apiCaller));
    } catch {
      setAllowance(null); // unknown: the server still refuses over-limit creations with 429
    } finally {
      setLoading(false);
    }
  }, [enabled]);

  useEffect(() => {
    if (enabled) void refresh();
    else {
      setAllowance(null);
      setLoading(false);
    }
  }, [enabled, refresh]);

  const limitReached = allowance !== null && allowance.remaining <= 0;
  const banned = allowance?.banned === true;
  /** The minimum account age's refusal (docs/integrity.md#minimum-account-age), said before the form. */
  const accountAgeRefusal = allowance?.accountAgeRefusal ?? null;
  return { allowance, loading, limitReached, banned, banReason: allowance?.banReason ?? null, accountAgeRefusal, refresh, setAllowance };
}
