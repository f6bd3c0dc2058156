/** The console's pure rules: queue membership and order, who sees what, chips, conflicts, bulk results, palette. */
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../../src-shared/console/outbox.ts';
import {
  chipFor,
  DEFAULT_FILTERS,
  isConsoleUser,
  latestEntryFor,
  matchesSearch,
  nextInQueue,
  queueItems,
  withActionsOnTheirWay,
  visibleQueues,
} from '../../../src-renderer/console/queues.ts';
import { conflictHeadline, copyableText, draftSide, resubmission, serverSide, stateText } from '../../../src-renderer/console/outboxView.ts';
import { bulkActions, bulkPreview, bulkResult } from '../../../src-renderer/console/bulk.ts';
import { filterCommands, petitionCommands, staticCommands } from '../../../src-renderer/console/commands.ts';
import { dataAge } from '../../../src-renderer/console/format.ts';
import { ADMIN, CITIZEN, LEADER, MINISTER, makePetition } from './console-double.ts';

function entry(overrides: Partial<OutboxEntry>): OutboxEntry {
  return {
    id: 'e1',
    seq: 1,
    action: { kind: 'response.save', petitionId: 1, baseVersion: 1, body: { response_text: 'Mine', added_by_role: 'Home Secretary' } },
    summary: 'Government response to petition #1',
    actorUserId: '2006',
    batchId: null,
    state: 'pending',
    attempts: 0,
    createdAt: '2026-11-23T13:55:00Z',
    updatedAt: '2026-11-23T13:55:00Z',
    nextAttemptAt: null,
    lastStatus: null,
    lastError: null,
    serverPetition: null,
    supersedesId: null,
    ...overrides,
  };
}

describe('queues', () => {
  const petitions = [
    makePetition({ id: 1, signatures: 12, created: '2026-11-10T00:00:00Z' }),
    makePetition({ id: 2, signatures: 25, status: 'awaiting_debate_in_parliament', created: '2026-11-05T00:00:00Z', tags: ['Defence'] }),
    makePetition({ id: 3, signatures: 14, governmentResponse: 'Done', status: 'government_response', created: '2026-11-01T00:00:00Z' }),
    makePetition({ id: 4, signatures: 3, status: 'open' }),
    makePetition({ id: 5, signatures: 22, termId: 2, debateInfo: { status: 'debated', date: '2026-11-20', location: 'Westminster Hall', hansardLink: 'https://hansard.example/x', notDebatedReason: null }, status: 'debated_in_parliament', created: '2026-11-02T00:00:00Z' }),
  ];

  it('holds what the shared classification says, ordered by signatures or by waiting time', () => {
    expect(queueItems(petitions, 'response', DEFAULT_FILTERS).map((p) => p.id)).toEqual([2, 5, 1]);
    expect(queueItems(petitions, 'response', { ...DEFAULT_FILTERS, sort: 'waiting' }).map((p) => p.id)).toEqual([5, 2, 1]);
    expect(queueItems(petitions, 'debate', DEFAULT_FILTERS).map((p) => p.id)).toEqual([2]);
  });

  it('filters by term, tag and search (number or title)', () => {
    expect(queueItems(petitions, 'response', { ...DEFAULT_FILTERS, term: 2 }).map((p) => p.id)).toEqual([5]);
    expect(queueItems(petitions, 'response', { ...DEFAULT_FILTERS, tag: 'Defence' }).map((p) => p.id)).toEqual([2]);
    expect(matchesSearch({ id: 12, title: 'Roads' }, '#12')).toBe(true);
    expect(matchesSearch({ id: 12, title: 'Roads' }, '1')).toBe(false);
    expect(matchesSearch({ id: 12, title: 'More Roads' }, 'roads')).toBe(true);
  });

  it('shows rank 6 no debate queue and turns citizens away', () => {
    expect(visibleQueues(MINISTER)).toEqual(['response']);
    expect(visibleQueues(LEADER)).toEqual(['response', 'debate']);
    expect(visibleQueues(ADMIN)).toEqual(['response', 'debate']);
    expect(isConsoleUser(CITIZEN)).toBe(false);
    expect(isConsoleUser(MINISTER)).toBe(true);
    expect(isConsoleUser(null)).toBe(false);
  });

  it('chips the latest live action of a petition', () => {
    const entries = [entry({ id: 'a', seq: 1, state: 'applied' }), entry({ id: 'b', seq: 2, state: 'pending' }), entry({ id: 'c', seq: 3, state: 'cancelled' })];
    expect(latestEntryFor(entries, 1)?.id).toBe('b');
    expect(chipFor(latestEntryFor(entries, 1), false)).toEqual({ tone: 'queued', label: 'Queued offline' });
    expect(chipFor(entry({ state: 'sending' }), true)?.label).toBe('Sending…');
    expect(chipFor(entry({ state: 'applied' }), true)?.label).toBe('Sent ✓');
    expect(chipFor(entry({ state: 'conflict' }), true)?.label).toBe('Needs attention ⚠');
    expect(latestEntryFor(entries, 2)).toBeNull();
  });

  it('keeps a petition in its queue while its action is on its way, and lets it go once applied', () => {
    const read = [makePetition({ id: 1 })];
    const seen = { 2: makePetition({ id: 2, title: 'Queued offline' }) };
    const onItsWay = [entry({ id: 'q', seq: 5, action: { kind: 'response.remove', petitionId: 2, baseVersion: 1 }, state: 'retry_wait' })];
    expect(withActionsOnTheirWay(read, seen, onItsWay).map((p) => p.id)).toEqual([1, 2]);
    expect(withActionsOnTheirWay(read, seen, [{ ...onItsWay[0]!, state: 'applied' }]).map((p) => p.id)).toEqual([1]);
    expect(withActionsOnTheirWay(read, {}, onItsWay).map((p) => p.id)).toEqual([1]);
  });

  it('moves on to the next petition', () => {
    const items = queueItems(petitions, 'response', DEFAULT_FILTERS);
    expect(nextInQueue(items, 5)?.id).toBe(1);
    expect(nextInQueue(items, 1)).toBeNull();
  });

  it('says how old the data is', () => {
    expect(dataAge('2026-11-23T14:02:00Z', true, Date.parse('2026-11-23T14:30:00Z'))).toBe('as of 14:02, offline');
    expect(dataAge('2026-11-23T14:02:00Z', false, Date.parse('2026-11-23T14:30:00Z'))).toBe('as of 14:02');
    expect(dataAge(null, false)).toBeNull();
  });
});

describe('outbox states as the panel says them', () => {
  const at = (iso: string) => iso.slice(11, 16);
  const waiting = { state: 'retry_wait' as const, lastStatus: null, lastError: 'The server could not be reached', nextAttemptAt: '2026-05-01T13:31:00.000Z' };
  it('says a row waiting for the backend goes as soon as it answers, not at a time of its own', () => {
    expect(stateText(waiting, at)).toBe('Waiting for the server (sent as soon as it answers)');
    expect(stateText({ ...waiting, lastStatus: 502, lastError: 'Bad Gateway' }, at)).toBe('Waiting for the server (sent as soon as it answers)');
  });
  it('gives the next try of a row backing off after a real answer (maintenance, 429, 500)', () => {
    expect(stateText({ ...waiting, lastStatus: 503, lastError: 'Site Under Maintenance' }, at)).toBe('Waiting to retry, next try 13:31');
    expect(stateText({ ...waiting, lastStatus: 500, lastError: 'Oops' }, at)).toBe('Waiting to retry, next try 13:31');
    expect(stateText({ ...waiting, state: 'applied' }, at)).toBe('Applied');
  });
  it('says a queued row waits for the server while the console is offline', () => {
    expect(stateText({ ...waiting, state: 'pending' }, at, false)).toBe('Waiting for the server (sent as soon as it answers)');
    expect(stateText({ ...waiting, state: 'pending' }, at, true)).toBe('Queued');
  });
});

describe('conflict card', () => {
  const server = makePetition({
    id: 1,
    version: 4,
    governmentResponse: 'Theirs',
    governmentResponseMeta: { addedBy: 'Prime Minister', addedByRole: 'Prime Minister', addedAt: '2026-11-23T14:01:00Z', editedBy: null, editedByRole: null, editedAt: null },
  });
  const conflict = entry({ state: 'conflict', serverPetition: server, lastStatus: 412 });

  it('puts who, role, when and text of the server beside the draft', () => {
    expect(serverSide(conflict.action, server)).toMatchObject({ who: 'Prime Minister', role: 'Prime Minister', when: '2026-11-23T14:01:00Z', text: 'Theirs' });
    expect(draftSide(conflict)).toMatchObject({ who: 'You', role: 'Home Secretary', text: 'Mine', when: '2026-11-23T13:55:00Z' });
    expect(conflictHeadline(conflict)).toBe('Prime Minister changed the government response of petition #1 before your action arrived');
    expect(copyableText(conflict.action)).toBe('Mine');
  });

  it('resubmits the same intent on the server version, never on the stale one', () => {
    expect(resubmission(conflict.action, server)).toMatchObject({ kind: 'response.save', baseVersion: 4, body: { response_text: 'Mine' } });
  });
});

describe('bulk override', () => {
  const chosen = [makePetition({ id: 1, status: 'open' }), makePetition({ id: 2, status: 'closed' }), makePetition({ id: 3, status: 'open', version: 7 })];

  it('previews how many change', () => {
    expect(bulkPreview(chosen, 'closed')).toEqual({ selected: 3, willChange: 2, unchanged: 1 });
    expect(bulkActions(chosen, 'closed')[2]).toEqual({ kind: 'petition.setStatus', petitionId: 3, baseVersion: 7, status: 'closed' });
  });

  it('reads each row as applied, unchanged, conflict or not found', () => {
    const set = { kind: 'petition.setStatus' as const, petitionId: 1, baseVersion: 1, status: 'closed' as const };
    expect(bulkResult(entry({ action: set, state: 'applied' }), 'open')).toBe('applied');
    expect(bulkResult(entry({ action: set, state: 'applied' }), 'closed')).toBe('unchanged');
    expect(bulkResult(entry({ action: set, state: 'conflict' }), 'open')).toBe('conflict');
    expect(bulkResult(entry({ action: set, state: 'rejected', lastStatus: 404 }), 'open')).toBe('not found');
    expect(bulkResult(entry({ action: set, state: 'rejected', lastStatus: 403 }), 'open')).toBe('forbidden');
    expect(bulkResult(entry({ action: set, state: 'pending' }), 'open')).toBe('queued');
  });
});

describe('command palette', () => {
  it('offers each rank only what it may do', () => {
    const minister = staticCommands(MINISTER, { name: 'petition', id: 3, mode: null, from: 'response' }).map((c) => c.label);
    expect(minister).toContain('Queue: Awaiting government response');
    expect(minister).toContain('Respond to petition #3');
    expect(minister).not.toContain('Queue: Awaiting debate');
    expect(minister).not.toContain('Record a debate for petition #3');
    expect(minister).not.toContain('Bulk status override');
    const admin = staticCommands(ADMIN, { name: 'home' }).map((c) => c.label);
    expect(admin).toEqual(expect.arrayContaining(['Bulk status override', 'Audit log', 'Maintenance mode', 'Queue: Awaiting debate']));
  });

  it('finds petitions by number or title, and opens a number it has not read', () => {
    const known = [makePetition({ id: 12, title: 'More roads' }), makePetition({ id: 13, title: 'Fewer roads' })];
    expect(petitionCommands(known, 'roads').map((c) => c.label)).toEqual(['#12 More roads', '#13 Fewer roads']);
    expect(petitionCommands(known, '#99')[0]).toMatchObject({ label: 'Open petition #99', effect: { type: 'go', screen: { name: 'petition', id: 99 } } });
    expect(filterCommands(staticCommands(ADMIN, { name: 'home' }), 'sync').map((c) => c.label)).toEqual(['Sync now']);
  });
});
