/**
 * The side navigation: the queues this rank may work on, with their counts and how many are overdue
 * (docs/console-team.md#queue-ageing), and the other screens.
 */
import type { ReactNode } from 'react';
import { MODERATION_QUEUE_TITLE } from '../../../src-shared/domain/moderation-constants.ts';
import { canBulkOverride, canSeeModerationQueue, QUEUES, visibleQueues } from '../queues.ts';
import type { QueueKind } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import type { AdminSection, Screen } from '../state/navStore.ts';
import { useQueueCount, useUser } from '../state/selectors.ts';
import { isAdministrator } from '../../../src-shared/rules/permissions.ts';

export const ADMIN_SECTIONS: Record<AdminSection, string> = {
  terms: 'Parliamentary terms',
  assign: 'Assign petitions',
  maintenance: 'Maintenance',
  bans: 'Bans and ban statistics',
  status: 'Status override',
  integrity: 'Unusual signing and invalidation',
  audit: 'Audit log',
  statistics: 'Statistics',
};

function isCurrent(screen: Screen, target: Screen): boolean {
  if (screen.name !== target.name) return false;
  if (screen.name === 'queue' && target.name === 'queue') return screen.kind === target.kind;
  if (screen.name === 'admin' && target.name === 'admin') return screen.section === target.section;
  return true;
}

function isWithin(screen: Screen, target: Screen): boolean {
  if (screen.name === 'petition' && target.name === 'queue') return screen.from === target.kind;
  return screen.name === 'moderationCase' && target.name === 'moderation';
}

function NavItem({ target, children }: { target: Screen; children: ReactNode }) {
  const { nav } = useStores();
  const screen = nav((s) => s.screen);
  const current = isCurrent(screen, target) || isWithin(screen, target);
  return (
    <li>
      <button
        type="button"
        className={`console-nav__item${current ? ' console-nav__item--current' : ''}`}
        aria-current={current ? 'page' : undefined}
        onClick={() => nav.getState().go(target)}
      >
        {children}
      </button>
    </li>
  );
}

function QueueNavItem({ kind }: { kind: QueueKind }) {
  const count = useQueueCount(kind);
  const label = count === null ? 'not loaded' : `${count.total} petitions${count.overdue ? `, ${count.overdue} overdue` : ''}`;
  return (
    <NavItem target={{ name: 'queue', kind }}>
      <span>{QUEUES[kind].title}</span>
      <span className="console-count" aria-label={label}>
        {count?.total ?? '–'}
        {count?.overdue ? <span className="console-count__overdue"> · {count.overdue} overdue</span> : null}
      </span>
    </NavItem>
  );
}

/** The moderation queue's count: every case to review (reported or hidden), as the server last said. */
function ModerationNavItem() {
  const { moderation } = useStores();
  const count = moderation((s) => s.queues.review.data?.total ?? null);
  return (
    <NavItem target={{ name: 'moderation' }}>
      <span>{MODERATION_QUEUE_TITLE}</span>
      <span className="console-count" aria-label={count === null ? 'not loaded' : `${count} to review`}>
        {count ?? '–'}
      </span>
    </NavItem>
  );
}

export function Navigation() {
  const user = useUser();
  const queues = visibleQueues(user);
  return (
    <nav className="console-nav" aria-label="Console">
      <h2 className="console-nav__heading">Queues</h2>
      <ul>
        {queues.map((kind) => (
          <QueueNavItem key={kind} kind={kind} />
        ))}
        {canSeeModerationQueue(user) ? <ModerationNavItem /> : null}
      </ul>
      {canBulkOverride(user) || isAdministrator(user) ? (
        <>
          <h2 className="console-nav__heading">Administration</h2>
          <ul>
            {canBulkOverride(user) ? <NavItem target={{ name: 'bulk' }}>Bulk status override</NavItem> : null}
            {(Object.keys(ADMIN_SECTIONS) as AdminSection[]).map((section) => (
              <NavItem key={section} target={{ name: 'admin', section }}>
                {ADMIN_SECTIONS[section]}
              </NavItem>
            ))}
          </ul>
        </>
      ) : null}
    </nav>
  );
}
