/** Ban form rules, mirroring the server (user ids are digit strings; a reason is required). */
import { banReasonError, isUserId } from '../../../src-shared/rules/validation.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import type { BanStats } from '../../../src-shared/domain/schemas.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';

export const BAN_FIELD_IDS = { userId: 'ban-user-id', reason: 'ban-reason' } as const;

export function banFormErrors(draft: { userId: string; reason: string }): Partial<Record<'userId' | 'reason', string>> {
  const errors: Partial<Record<'userId' | 'reason', string>> = {};
  if (!isUserId(draft.userId.trim())) errors.userId = STAFF_TEXTS.banUserIdRequired;
  const reason = banReasonError(draft.reason);
  if (reason) errors.reason = reason;
  return errors;
}

export interface BanStatsView {
  total: string;
  service: string;
  source: string | null;
  error: string | null;
}

export function banStatsView(stats: BanStats): BanStatsView {
  return {
    total: String(stats.total_banned_users),
    service: stats.service_available ? 'Available' : 'Unavailable',
    source: stats.cache_info
      ? `Figures from ${stats.cache_info.source}, ${formatDateTime(stats.cache_info.generated_at)}`
      : null,
    error: stats.error,
  };
}
