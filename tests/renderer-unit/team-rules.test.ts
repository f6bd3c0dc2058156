/**
 * The rules of working as a team, written once in src-shared (docs/console-team.md): queue ageing and
 * its texts, presence and claims as people read them, the stream's event guards, and the pieces of
 * the statistics and the console's notifications that need no server.
 */
import { describe, expect, it } from 'vitest';
import { parsePresenceList, parseQueueSummary } from '../../src-shared/api/staff-events.ts';
import type { PresenceEntry } from '../../src-shared/domain/team-schemas.ts';
import { claimedByOthers, claimWarning, othersOnPetition, presenceText } from '../../src-shared/rules/presence.ts';
import { ageingText, byLongestWaiting, countByAgeing, DAY_MS, DEFAULT_QUEUE_TARGETS, dueSoonWindowDays, queueAgeing } from '../../src-shared/rules/queue-ageing.ts';
import { backlogAt, handlingTimes } from '../../src-server/statistics/term-statistics.ts';
import { spreadLabels } from '../../src-renderer/staff/statistics/DailyChart.tsx';
import { queueNews } from '../../src-renderer/console/queueNews.ts';
import { makePetition } from './console/console-double.ts';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const ago = (days: number) => new Date(NOW - days * DAY_MS).toISOString();

describe('queue ageing', () => {
  it('counts from the threshold, falls back to creation, and marks due soon and overdue against the target', () => {
    expect(dueSoonWindowDays(14)).toBe(3);
    expect(dueSoonWindowDays(28)).toBe(6);
    expect(dueSoonWindowDays(2)).toBe(1);
    const at = (waited: number, kind: 'response' | 'debate' = 'response') =>
      queueAgeing({ created: ago(100), responseThresholdReachedAt: ago(waited), debateThresholdReachedAt: ago(waited) }, kind, NOW, DEFAULT_QUEUE_TARGETS);
    expect(at(10.9).mark).toBeNull();
    expect(at(11).mark).toBe('due_soon');
    expect(at(14).mark).toBe('due_soon');
    expect(at(14.01).mark).toBe('overdue');
    expect(at(21.9, 'debate').mark).toBeNull();
    expect(at(22, 'debate').mark).toBe('due_soon');
    expect(queueAgeing({ created: ago(3) }, 'response', NOW, DEFAULT_QUEUE_TARGETS)).toMatchObject({ since: ago(3), days: 3, mark: null });
    expect(ageingText(at(1), NOW)).toBe('waiting 1 day');
    expect(ageingText(at(12), NOW)).toBe('waiting 12 days, due in 2 days');
    expect(ageingText(at(13.9), NOW)).toBe('waiting 13 days, due in 1 day');
    expect(ageingText(at(14.5), NOW)).toBe('waiting 14 days, overdue since today');
    expect(ageingText(at(17), NOW)).toBe('waiting 17 days, 3 days overdue');
  });

  it('counts marks and orders longest waiting first', () => {
    const petitions = [
      { id: 1, created: ago(30), responseThresholdReachedAt: ago(2) },
      { id: 2, created: ago(3), responseThresholdReachedAt: ago(12) },
      { id: 3, created: ago(1), responseThresholdReachedAt: ago(20) },
      { id: 4, created: ago(25) },
    ];
    expect(countByAgeing(petitions, 'response', NOW, DEFAULT_QUEUE_TARGETS)).toEqual({ total: 4, dueSoon: 1, overdue: 2 });
    expect([...petitions].sort(byLongestWaiting('response')).map((p) => p.id)).toEqual([4, 3, 2, 1]);
  });
});

const entry = (over: Partial<PresenceEntry>): PresenceEntry => ({
  userId: '2006',
  displayName: 'Morgan Minister',
  role: 'Cabinet Minister',
  petitionId: 7,
  activity: 'viewing',
  since: '2026-11-24T10:00:00.000Z',
  claimedUntil: null,
  ...over,
});

describe('presence', () => {
  it('shows others once each, writers first, and never oneself', () => {
    const entries = [
      entry({ userId: '2008', displayName: 'Pat Premier', since: '2026-11-24T09:00:00.000Z' }),
      entry({ activity: 'viewing' }),
      entry({ activity: 'responding', since: '2026-11-24T10:05:00.000Z', claimedUntil: '2026-11-24T10:10:00.000Z' }),
      entry({ userId: '2007', displayName: 'Lee Leader', petitionId: 8, activity: 'debating' }),
      entry({ userId: '2000', displayName: 'Me' }),
    ];
    const others = othersOnPetition(entries, 7, '2000');
    expect(others.map((e) => [e.displayName, e.activity])).toEqual([
      ['Morgan Minister', 'responding'],
      ['Pat Premier', 'viewing'],
    ]);
    expect(presenceText(others[0]!)).toBe('Morgan Minister is writing a response');
    expect(presenceText(entry({ activity: 'debating' }))).toBe('Morgan Minister is recording a debate');
    expect([...claimedByOthers(entries, '2006')]).toEqual([8]);
    expect(claimWarning(others, 'responding')).toMatch(/^Morgan Minister \(Cabinet Minister\) is writing a response to this petition\. You can still write one/);
    expect(claimWarning(others, 'debating')).toBeNull();
  });

  it('reads stream events only in their exact shape', () => {
    const list = { entries: [entry({})] };
    expect(parsePresenceList(JSON.stringify(list))).toEqual(list);
    for (const bad of ['', 'null', '[]', '{"entries":{}}', JSON.stringify({ entries: [{ ...entry({}), activity: 'editing' }] }), JSON.stringify({ entries: [{ ...entry({}), petitionId: '7' }] })]) {
      expect(parsePresenceList(bad), bad).toBeNull();
    }
    const summary = { targets: DEFAULT_QUEUE_TARGETS, queues: { response: { total: 3, dueSoon: 1, overdue: 1 }, debate: { total: 0, dueSoon: 0, overdue: 0 } } };
    expect(parseQueueSummary(JSON.stringify(summary))).toEqual(summary);
    expect(parseQueueSummary(JSON.stringify({ ...summary, queues: { response: { total: -1, dueSoon: 0, overdue: 0 }, debate: summary.queues.debate } }))).toBeNull();
    expect(parseQueueSummary('{"targets":{}}')).toBeNull();
  });
});

describe('statistics and notifications', () => {
  it('takes the median, the nearest-rank 90th percentile and the backlog at an instant', () => {
    const stay = (start: number, answered: number | null, left = answered) => ({ start: NOW + start * DAY_MS, answered: answered === null ? null : NOW + answered * DAY_MS, left: left === null ? null : NOW + left * DAY_MS });
    expect(handlingTimes([stay(0, 1), stay(0, 2), stay(0, 6), stay(0, null)])).toEqual({ handled: 3, medianDays: 2, p90Days: 6, waiting: 1 });
    expect(handlingTimes([stay(0, 1), stay(0, 3)])).toMatchObject({ medianDays: 2, p90Days: 3 });
    // An answer given before the threshold took no time.
    expect(handlingTimes([stay(2, 1)])).toMatchObject({ medianDays: 0 });
    expect(handlingTimes([])).toEqual({ handled: 0, medianDays: null, p90Days: null, waiting: 0 });
    expect(backlogAt([stay(0, 5), stay(1, null), stay(0, 2)], NOW + 3 * DAY_MS, 2)).toEqual({ backlog: 2, overdue: 1 });
  });

  it('spreads chart labels apart and words the notification', () => {
    expect(spreadLabels([100, 100, 50, 105], 16)).toEqual([100, 116, 50, 132]);
    expect(queueNews('response', [makePetition({ id: 12, title: 'Free swimming', signatures: 13 })])).toEqual({
      title: 'New petition awaiting a government response',
      body: '#12 Free swimming (13 signatures)',
    });
    expect(queueNews('debate', [makePetition({ id: 1, title: 'A' }), makePetition({ id: 2, title: 'B' })])).toEqual({
      title: '2 new petitions awaiting a debate',
      body: '#1 A; #2 B',
    });
  });
});
