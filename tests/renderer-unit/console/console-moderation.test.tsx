/**
 * The console's moderation queue without a browser (docs/moderation.md#in-the-staff-console): who
 * gets it (navigation, keys, palette), how a case reads, the decisions and bulk plans the shared rule
 * allows, per-petition results, conflict texts, the store's reads, and what each rank's navigation shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import type { ConsoleApi, IpcChannel, IpcRequest } from '../../../src-shared/console/ipc-contract.ts';
import type { OutboxEntry } from '../../../src-shared/console/outbox.ts';
import type { StaffAction } from '../../../src-shared/console/staff-actions.ts';
import type { ModerationCase, ModerationQueue } from '../../../src-shared/domain/moderation-schemas.ts';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import { ConsoleApp } from '../../../src-renderer/console/ConsoleApp.tsx';
import { loadWorkspaceFrame } from '../../../src-renderer/console/lazyScreens.ts';
import { caseCommands, staticCommands } from '../../../src-renderer/console/commands.ts';
import {
  canBanCreator,
  caseStateLabel,
  decisionAction,
  decisionsFor,
  moderationBulkResult,
  planBulkDecision,
  reasonsSummary,
  withDecisionsOnTheirWay,
} from '../../../src-renderer/console/moderation.ts';
import { conflictHeadline, draftSide, resubmission, serverSide } from '../../../src-renderer/console/outboxView.ts';
import { DEFAULT_FILTERS, navigationQueues, queueItems } from '../../../src-renderer/console/queues.ts';
import { SHORTCUTS } from '../../../src-renderer/console/screens/ShortcutSheet.tsx';
import { createModerationStore } from '../../../src-renderer/console/state/moderationStore.ts';
import { createConsoleStores } from '../../../src-renderer/console/state/stores.ts';
import { ADMIN, CITIZEN, ConsoleDouble, LEADER, MINISTER, makePetition, sessionFor } from './console-double.ts';

// The workspace's navigation and filters are in the frame's chunk (lazyScreens.ts); a console has it a moment after start.
beforeAll(async () => {
  await loadWorkspaceFrame();
});

const AT = '2026-11-20T10:00:00.000Z';

function makeCase(overrides: Omit<Partial<ModerationCase>, 'petition'> & { petition?: Partial<Petition> } = {}): ModerationCase {
  const { petition, ...rest } = overrides;
  return {
    petition: makePetition({ id: 1, status: 'open', signatures: 4, ...petition }),
    openReports: 2,
    reports: [
      { id: 1, reason: 'spam', duplicateOf: null, details: null, reporter: { id: '3001', name: 'A' }, reportedAt: AT, open: true },
      { id: 2, reason: 'offensive', duplicateOf: null, details: 'Rude.', reporter: { id: '3002', name: 'B' }, reportedAt: AT, open: true },
      { id: 3, reason: 'spam', duplicateOf: null, details: null, reporter: { id: '3003', name: 'C' }, reportedAt: AT, open: true },
      { id: 4, reason: 'other', duplicateOf: null, details: 'Old.', reporter: { id: '3004', name: 'D' }, reportedAt: AT, open: false },
    ],
    totalReports: 4,
    rejection: null,
    creator: { id: '2001', name: 'Casey Citizen', banned: false, banReason: null },
    creatorPetitions: [],
    history: [],
    ...rest,
  };
}

const hidden = (id = 1, version = 2) => makeCase({ petition: { id, version, moderation: { state: 'hidden', note: null, reasonCode: null, at: AT } } });
const rejected = (id = 1, code = 'advertising') =>
  makeCase({ openReports: 0, petition: { id, version: 3, moderation: { state: 'rejected', note: null, reasonCode: code, at: AT } } });

function entry(action: StaffAction, overrides: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    id: `e-${'petitionId' in action ? action.petitionId : 0}`,
    seq: 1,
    action,
    summary: 'summary',
    actorUserId: '2007',
    batchId: null,
    state: 'pending',
    attempts: 0,
    createdAt: AT,
    updatedAt: AT,
    nextAttemptAt: null,
    lastStatus: null,
    lastError: null,
    serverPetition: null,
    supersedesId: null,
    ...overrides,
  };
}

describe('who has the moderation queue', () => {
  it('is the third queue for rank 7 and up and the administrator, and absent below', () => {
    expect(navigationQueues(MINISTER)).toEqual([{ name: 'queue', kind: 'response' }]);
    expect(navigationQueues(LEADER).at(-1)).toEqual({ name: 'moderation' });
    expect(navigationQueues(LEADER)).toHaveLength(3);
    expect(navigationQueues(ADMIN).at(-1)).toEqual({ name: 'moderation' });
    expect(navigationQueues(CITIZEN)).toEqual([]);
  });

  it('is in the palette for moderators, with the case’s decisions on a case and the ban for the administrator only', () => {
    const ids = (user: typeof LEADER, screen: Parameters<typeof staticCommands>[1]) => staticCommands(user, screen).map((c) => c.id);
    expect(ids(MINISTER, { name: 'home' })).not.toContain('queue:moderation');
    expect(ids(LEADER, { name: 'home' })).toContain('queue:moderation');
    const onCase = { name: 'moderationCase', id: 9, control: null } as const;
    expect(ids(LEADER, onCase)).toEqual(expect.arrayContaining(['case:keep', 'case:hide', 'case:reject', 'case:restore']));
    expect(ids(LEADER, onCase)).not.toContain('case:ban');
    expect(ids(ADMIN, onCase)).toContain('case:ban');
    expect(staticCommands(LEADER, onCase).find((c) => c.id === 'case:restore')).toMatchObject({
      label: 'Restore petition #9',
      effect: { type: 'go', screen: { name: 'moderationCase', id: 9, control: 'restore' } },
    });
  });

  it('finds cases the console has read by number or title', () => {
    const cases = [makeCase({ petition: { id: 12, title: 'Paint the town hall pink' } }), hidden(13)];
    expect(caseCommands(cases, 'pink').map((c) => c.label)).toEqual(['Moderation case #12 Paint the town hall pink']);
    expect(caseCommands(cases, '#13')[0]?.effect).toEqual({ type: 'go', screen: { name: 'moderationCase', id: 13, control: null } });
    expect(caseCommands(cases, '  ')).toEqual([]);
  });

  it('lists its keys in the shortcut sheet', () => {
    const keys = SHORTCUTS.map(([k, what]) => `${k}: ${what}`);
    expect(keys).toEqual(expect.arrayContaining([
      expect.stringMatching(/^1 \/ 2 \/ 3: .*moderation/),
      expect.stringMatching(/^Space: Moderation queue: mark/),
      expect.stringMatching(/^k: Moderation case: keep/),
      expect.stringMatching(/^h: Moderation case: hide/),
      expect.stringMatching(/^x: Moderation case: reject/),
      expect.stringMatching(/^r: Moderation case: restore/),
      expect.stringMatching(/^b: Moderation case: ban the creator/),
    ]));
  });
});

describe('a case', () => {
  it('reads as its state, with its open reports’ reasons, most given first', () => {
    expect(caseStateLabel(makeCase())).toBe('Reported');
    expect(caseStateLabel(hidden())).toBe('Hidden');
    expect(caseStateLabel(rejected())).toBe('Rejected');
    // The settled "other" report is not counted.
    expect(reasonsSummary(makeCase())).toBe('Spam or advertising ×2, Offensive or abusive');
  });

  it('offers only what the shared rule allows in its state', () => {
    expect(decisionsFor(makeCase())).toEqual(['keep', 'hide', 'reject']);
    expect(decisionsFor(hidden())).toEqual(['keep', 'reject', 'restore']);
    expect(decisionsFor(rejected())).toEqual(['reject', 'restore']);
  });

  it('queues each decision as its staff action, based on the version shown', () => {
    const petition = { id: 4, version: 6 };
    expect(decisionAction(petition, { decision: 'keep' })).toEqual({ kind: 'moderation.keep', petitionId: 4, baseVersion: 6 });
    expect(decisionAction(petition, { decision: 'hide', reason: '  Held.  ' })).toEqual({ kind: 'moderation.hide', petitionId: 4, baseVersion: 6, reason: 'Held.' });
    expect(decisionAction(petition, { decision: 'reject', reasonCode: 'unclear' })).toEqual({ kind: 'moderation.reject', petitionId: 4, baseVersion: 6, reasonCode: 'unclear' });
    expect(decisionAction(petition, { decision: 'restore' })).toEqual({ kind: 'moderation.restore', petitionId: 4, baseVersion: 6 });
  });

  it('lets the administrator ban a known creator who is not banned yet and is not themselves', () => {
    expect(canBanCreator(ADMIN, makeCase())).toBe(true);
    expect(canBanCreator(LEADER, makeCase())).toBe(false);
    expect(canBanCreator(ADMIN, makeCase({ creator: { id: '2001', name: 'C', banned: true, banReason: 'x' } }))).toBe(false);
    expect(canBanCreator(ADMIN, makeCase({ creator: { id: null, name: 'Unknown', banned: false, banReason: null } }))).toBe(false);
    expect(canBanCreator(ADMIN, makeCase({ creator: { id: ADMIN.id, name: 'Me', banned: false, banReason: null } }))).toBe(false);
  });

  it('keeps a hidden or rejected petition out of the petition queues, as the server’s lists do', () => {
    const petitions = [makePetition({ id: 1 }), makePetition({ id: 2, moderation: { state: 'hidden', note: 'x', reasonCode: null, at: AT } })];
    expect(queueItems(petitions, 'response', DEFAULT_FILTERS).map((p) => p.id)).toEqual([1]);
  });
});

describe('a bulk decision', () => {
  it('sends what applies or changes nothing, and says why the rest is not sent', () => {
    const plan = planBulkDecision([makeCase({ petition: { id: 1 } }), hidden(2), rejected(3)], { decision: 'hide', reason: 'Review.' });
    expect(plan.send.map((c) => c.petition.id)).toEqual([1, 2]);
    expect(plan).toMatchObject({ willChange: 1, unchanged: 1 });
    expect(plan.refused).toEqual([{ item: rejected(3), message: 'This petition was rejected: restore it before hiding it' }]);
  });

  it('gives each petition its result: unchanged when the decision changed nothing as chosen', () => {
    const keepOfHidden = entry({ kind: 'moderation.keep', petitionId: 2, baseVersion: 2 }, { state: 'applied' });
    const hideOfHidden = entry({ kind: 'moderation.hide', petitionId: 2, baseVersion: 2, reason: 'Again.' }, { state: 'applied' });
    expect(moderationBulkResult(keepOfHidden, hidden(2))).toBe('applied');
    expect(moderationBulkResult(hideOfHidden, hidden(2))).toBe('unchanged');
    expect(moderationBulkResult({ ...hideOfHidden, state: 'conflict' }, hidden(2))).toBe('conflict');
    expect(moderationBulkResult({ ...hideOfHidden, state: 'rejected', lastStatus: 404 }, hidden(2))).toBe('not found');
    expect(moderationBulkResult({ ...hideOfHidden, state: 'pending' }, hidden(2))).toBe('queued');
  });

  it('keeps cases with a decision on its way in the queue until it applied', () => {
    const seen = { 5: hidden(5), 6: hidden(6) };
    const entries = [
      entry({ kind: 'moderation.restore', petitionId: 5, baseVersion: 2 }, { state: 'conflict' }),
      entry({ kind: 'moderation.restore', petitionId: 6, baseVersion: 2 }, { state: 'applied' }),
    ];
    expect(withDecisionsOnTheirWay([makeCase({ petition: { id: 1 } })], seen, entries).map((c) => c.petition.id)).toEqual([1, 5]);
  });
});

describe('a moderation conflict', () => {
  const server = makePetition({ id: 8, version: 5, moderation: { state: 'rejected', note: null, reasonCode: 'offensive', at: AT } });

  it('shows the server’s moderation state beside the decision', () => {
    const hide = entry({ kind: 'moderation.hide', petitionId: 8, baseVersion: 4, reason: 'Held.' }, { state: 'conflict', serverPetition: server });
    expect(serverSide(hide.action, server)).toMatchObject({ text: 'Rejected (reason: offensive)', when: AT });
    expect(serverSide(hide.action, makePetition({ id: 8 })).text).toBe('Visible on the site · Awaiting government response');
    expect(draftSide(hide).text).toBe('Hide the petition: “Held.”');
    expect(conflictHeadline(hide)).toBe('Another moderator decided about petition #8 before your decision arrived');
  });

  it('offers no resubmission the petition’s state would refuse, and one on the server’s version otherwise', () => {
    expect(resubmission({ kind: 'moderation.keep', petitionId: 8, baseVersion: 4 }, server)).toBeNull();
    expect(resubmission({ kind: 'moderation.restore', petitionId: 8, baseVersion: 4 }, server)).toEqual({ kind: 'moderation.restore', petitionId: 8, baseVersion: 5 });
  });
});

/** Only data:read of the moderation paths, as the main side answers them. */
class ModerationReads implements ConsoleApi {
  paths: string[] = [];
  readonly cases: ModerationCase[];
  constructor(cases: ModerationCase[]) {
    this.cases = cases;
  }
  on() {
    return () => undefined;
  }
  async invoke<C extends IpcChannel>(channel: C, request: IpcRequest<C>) {
    const path = (request as { path: string }).path;
    this.paths.push(path);
    const url = new URL(path, 'http://console.test');
    const answer = (data: unknown) => ({ ok: true as const, value: { data, fetchedAt: '2026-11-23T14:02:00Z', fromCache: false } as never });
    if (channel === 'data:read' && url.pathname === '/api/moderation/queue') {
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('pageSize'));
      const body: ModerationQueue = { items: this.cases.slice((page - 1) * size, page * size), total: this.cases.length, page, pageSize: size, counts: { reported: 1, hidden: this.cases.length - 1, rejected: 0 } };
      return answer(body);
    }
    const one = /^\/api\/moderation\/petitions\/(\d+)$/.exec(url.pathname);
    if (channel === 'data:read' && one) return answer(this.cases.find((c) => c.petition.id === Number(one[1])));
    return { ok: false as const, code: 'failed' as const, message: `no ${path}` };
  }
}

describe('the moderation store', () => {
  it('reads every page of a view, remembers the previous read, and keeps the freshest copy of a case', async () => {
    const cases = Array.from({ length: 70 }, (_, i) => hidden(i + 1, 2));
    const api = new ModerationReads(cases);
    const store = createModerationStore(api);
    await store.getState().loadQueue('review');
    expect(store.getState().queues.review.data?.items).toHaveLength(70);
    expect(store.getState().queues.review.data?.total).toBe(70);
    expect(api.paths).toEqual(['/api/moderation/queue?view=review&page=1&pageSize=50', '/api/moderation/queue?view=review&page=2&pageSize=50']);

    api.cases.splice(0, 1, hidden(1, 9));
    await store.getState().loadCase(1);
    expect(store.getState().caseOf(1)?.petition.version).toBe(9);
    await store.getState().loadQueue('review');
    expect(store.getState().seen[70]?.petition.id).toBe(70);
  });

  it('marks cases for a bulk decision and forgets the marks with the view', () => {
    const store = createModerationStore(new ModerationReads([]));
    store.getState().toggleMarked(3);
    store.getState().toggleMarked(4);
    store.getState().toggleMarked(3);
    expect(store.getState().marked).toEqual([4]);
    store.getState().setView('rejected');
    expect(store.getState().marked).toEqual([]);
  });
});

describe('what each rank’s navigation shows', () => {
  const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  const render = (user: typeof MINISTER) => {
    const stores = createConsoleStores(new ConsoleDouble({ user }), { session: sessionFor(user), screen: { name: 'queue', kind: 'response' } });
    return text(renderToString(<ConsoleApp stores={stores} />));
  };

  it('shows Moderation to rank 7 and the administrator, not to rank 6', () => {
    expect(render(MINISTER)).not.toContain('Moderation');
    expect(render(LEADER)).toContain('Moderation');
    expect(render(ADMIN)).toContain('Moderation');
  });
});
