/**
 * The header's account block for a signed-in member: notifications, avatar, name and role, the staff
 * links their rights allow, Account and Logout. A chunk of its own (Header.tsx), so visitors never download it.
 */
import type { ReactNode } from 'react';
import { Link } from './Link.tsx';
import { roleLabel } from '../../src-shared/rules/roles.ts';
import { canManageTerms, canModerate } from '../../src-shared/rules/permissions.ts';
import type { User } from '../../src-shared/domain/schemas.ts';
import { useSession } from '../stores/index.ts';
import { NotificationsButton } from './NotificationsButton.tsx';

/** `avatar` is the member's avatar as Header.tsx draws it; `name` the name shown. */
export function MemberAccount({ user, name, avatar }: { user: User; name: string; avatar: ReactNode }) {
  const logout = useSession((s) => s.logout);
  return (
    <div className="account">
      <NotificationsButton userId={user.id} />
      {avatar}
      <div className="account__who">
        <span className="account__name">{name}</span>
        <span className="account__role">{roleLabel(user)}</span>
      </div>
      {canModerate(user) ? (
        <Link className="header__link" to="/moderation">
          Moderation
        </Link>
      ) : null}
      {canManageTerms(user) ? (
        <Link className="header__link" to="/term-management">
          Manage Terms
        </Link>
      ) : null}
      <Link className="header__link" to="/account">
        Account
      </Link>
      <button type="button" className="button button--header" onClick={() => void logout()}>
        Logout
      </button>
    </div>
  );
}
