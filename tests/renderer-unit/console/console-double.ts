/**
 * A ConsoleApi test double for the console's stores and screens: an in-memory outbox and read
 * cache answering the contract's channels with the contract's shapes. The Playwright journeys run
 * against the real core; this only makes store and screen logic testable without a backend.
 */
import type {
  ConsoleApi,
  ConsoleSession,
  PresenceView,
  IpcChannel,
  IpcEvent,
  IpcEventPayload,
  IpcRequest,
  IpcResponse,
  IpcResult,
} from '../../../src-shared/console/ipc-contract.ts';
import { IPC_CHANNELS } from '../../../src-shared/console/ipc-contract.ts';
import type { OutboxEntry, OutboxState } from '../../../src-shared/console/outbox.ts';
import { ATTENTION_STATES } from '../../../src-shared/console/outbox.ts';
import type { StaffAction } from '../../../src-shared/console/staff-actions.ts';
import type { Petition, User } from '../../../src-shared/domain/schemas.ts';
import { makeUser } from '../fakes.ts';
import { DEFAULT_QUEUE_TARGETS } from '../../../src-shared/rules/queue-ageing.ts';

export function makePetition(overrides: Partial<Petition> = {}): Petition {
  return {
    id: 1,
    title: 'Build a new library in the capital',
    description: 'The capital needs a bigger public library with long opening hours for everyone.',
    creator: 'citizen',
    creator_id: '2001',
    tags: ['Public Services'],
    category: 'General',
    termId: 1,
    status: 'awaiting_government_response',
    signatures: 12,
    created: '2026-11-01T10:00:00Z',
    closureReason: null,
    closedAt: null,
    governmentResponse: null,
    governmentResponseMeta: null,
    debateInfo: null,
    debateInfoMeta: null,
    version: 1,
    ...overrides,
  };
}

export const MINISTER = makeUser({ id: '2006', username: 'minister', displayName: 'Cabinet Minister', rank: 6, government_rank: 6, userType: 'Government Official' });
export const LEADER = makeUser({ id: '2007', username: 'leader', displayName: 'Leader of the House', rank: 7, government_rank: 7, userType: 'Government Official' });
export const ADMIN = makeUser({ id: '2000', username: 'admin', displayName: 'System Administrator', rank: 9, government_rank: 0, userType: 'System Administrator' });
export const CITIZEN = makeUser();

export function sessionFor(user: User | null, connection: ConsoleSession['connection'] = 'online'): ConsoleSession {
  return { user, connection, lastContactAt: '2026-11-23T14:02:00Z', queuedForOthers: [] };
}

export class ConsoleDouble implements ConsoleApi {
  session: ConsoleSession;
  petitions: Petition[];
  entries: OutboxEntry[] = [];
  calls: { channel: IpcChannel; request: unknown }[] = [];
  offline = false;
  /** What presence:get answers (the real main process: the staff event stream). */
  presence: PresenceView = { connected: true, unreachable: false, entries: [], queues: null };
  private listeners = new Map<IpcEvent, Set<(payload: never) => void>>();
  private seq = 0;

  constructor(options: { user?: User | null; petitions?: Petition[] } = {}) {
    this.session = sessionFor(options.user === undefined ? MINISTER : options.user);
    this.petitions = options.petitions ?? [];
  }

  on<E extends IpcEvent>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as (payload: never) => void);
    this.listeners.set(event, set);
    return () => set.delete(listener as (payload: never) => void);
  }

  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (p: IpcEventPayload<E>) => void)(payload);
  }

  summary() {
    const count = (states: OutboxState[]) => this.entries.filter((e) => states.includes(e.state)).length;
    return { queued: count(['pending', 'retry_wait']), sending: count(['sending']), attention: count([...ATTENTION_STATES]) };
  }

  /** Moves an entry to a state as the sync engine would, and tells listeners. */
  settle(id: string, state: OutboxState, extra: Partial<OutboxEntry> = {}): void {
    this.entries = this.entries.map((e) => (e.id === id ? { ...e, ...extra, state } : e));
    this.emit('outbox:changed', this.summary());
  }

  private addEntry(action: StaffAction, batchId: string | null, supersedesId: string | null = null): OutboxEntry {
    this.seq += 1;
    const entry: OutboxEntry = {
      id: `entry-${this.seq}`,
      seq: this.seq,
      action,
      summary: 'petitionId' in action ? `${action.kind} #${action.petitionId}` : action.kind,
      actorUserId: this.session.user?.id ?? '0',
      batchId,
      state: 'pending',
      attempts: 0,
      createdAt: '2026-11-23T14:00:00Z',
      updatedAt: '2026-11-23T14:00:00Z',
      nextAttemptAt: null,
      lastStatus: null,
      lastError: null,
      serverPetition: null,
      supersedesId,
    };
    this.entries.push(entry);
    return entry;
  }

  async invoke<C extends IpcChannel>(channel: C, request: IpcRequest<C>): Promise<IpcResult<IpcResponse<C>>> {
    this.calls.push({ channel, request });
    // The real main side parses every request: so does the double, so a screen sending a bad one fails here.
    const parsed = IPC_CHANNELS[channel].request.safeParse(request);
    if (!parsed.success) return { ok: false, code: 'invalid_request', message: parsed.error.message };
    const value = this.answer(channel, parsed.data as never);
    if (value instanceof Error) return { ok: false, code: 'failed', message: value.message };
    return { ok: true, value: value as IpcResponse<C> };
  }

  private answer(channel: IpcChannel, request: Record<string, unknown>): unknown {
    switch (channel) {
      case 'session:get':
      case 'session:signIn':
        return this.session;
      case 'session:signOut':
        this.session = sessionFor(null);
        return this.session;
      case 'data:read':
        return this.read(String(request.path));
      case 'outbox:enqueue': {
        const batchId = request.batch ? `batch-${this.seq + 1}` : null;
        const entries = (request.actions as StaffAction[]).map((a) => this.addEntry(a, batchId));
        return { entries };
      }
      case 'outbox:list':
        return { entries: [...this.entries].reverse(), summary: this.summary() };
      case 'outbox:retry':
      case 'outbox:discard': {
        const entry = this.entries.find((e) => e.id === request.id);
        if (!entry) return new Error('No such entry');
        this.settle(entry.id, channel === 'outbox:retry' ? 'pending' : 'cancelled');
        return this.entries.find((e) => e.id === request.id);
      }
      case 'outbox:resubmit': {
        const old = this.entries.find((e) => e.id === request.id);
        if (!old) return new Error('No such entry');
        this.settle(old.id, 'cancelled');
        return { entries: [this.addEntry(request.action as StaffAction, old.batchId, old.id)] };
      }
      case 'sync:now':
        return this.summary();
      case 'presence:get':
        return this.presence;
      case 'presence:set':
      case 'platform:notify':
      case 'platform:openExternal':
      case 'update:restart':
        return { ok: true };
      case 'update:status':
        return { state: 'idle', version: null, message: null };
    }
  }

  private read(path: string): unknown {
    const url = new URL(path, 'http://console.test');
    const fetchedAt = '2026-11-23T14:02:00Z';
    if (url.pathname === '/api/parliamentary-terms') return { data: [], fetchedAt, fromCache: this.offline };
    if (url.pathname === '/api/staff/queue-summary') {
      const none = { total: 0, dueSoon: 0, overdue: 0 };
      return { data: { targets: DEFAULT_QUEUE_TARGETS, queues: { response: none, debate: none } }, fetchedAt, fromCache: this.offline };
    }
    const one = /^\/api\/petitions\/(\d+)$/.exec(url.pathname);
    if (one) {
      const petition = this.petitions.find((p) => p.id === Number(one[1]));
      if (!petition) return new Error('Petition not found');
      return { data: { ...petition, signers: [], signed_by_viewer: false }, fetchedAt, fromCache: this.offline };
    }
    if (url.pathname === '/api/petitions') {
      const pageSize = Number(url.searchParams.get('pageSize') ?? 20);
      const page = Number(url.searchParams.get('page') ?? 1);
      const items = this.petitions.slice((page - 1) * pageSize, page * pageSize);
      return { data: { items, total: this.petitions.length, page, pageSize }, fetchedAt, fromCache: this.offline };
    }
    return new Error(`No such read: ${path}`);
  }
}
