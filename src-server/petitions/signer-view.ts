/** How a signature row is shown: the signer's public identity and avatar. */
import type { Selectable } from 'kysely';
import type { Signer } from '../../src-shared/domain/schemas.ts';
import type { SignaturesTable } from '../db/schema.ts';
import { avatarPath } from '../users/user-repository.ts';

export function toSigner(row: Pick<Selectable<SignaturesTable>, 'user_id' | 'username' | 'display_name' | 'signed_at'>): Signer {
  return {
    id: row.user_id,
    username: row.username,
    displayName: row.display_name,
    avatar: avatarPath(row.user_id),
    signed_at: row.signed_at,
  };
}
