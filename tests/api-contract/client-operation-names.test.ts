/**
 * The typed client (src-shared/api/client.ts) names each method by the operationId of the route it
 * calls: every operation of the served OpenAPI document has a client method (or link) of that name,
 * every client method is an operation, and calling a method over real HTTP reaches its operation's
 * method and path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-shared/api/client.ts';
import { startStack, type Stack } from '../support/stack.ts';

type Operations = Omit<ApiClient, 'read' | 'links'>;
/** Members of the client that are not operations: a GET by any path, and the group of links. */
const NOT_OPERATIONS = ['read', 'links'];

interface DocumentedOperation {
  method: string;
  /** The path template as a pattern: `/api/petitions/{id}` matches `/api/petitions/7`. */
  path: RegExp;
}

let stack: Stack;
const documented = new Map<string, DocumentedOperation>();

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  const response = await fetch(`${stack.baseUrl}/api/docs/json`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as { paths: Record<string, Record<string, { operationId?: string }>> };
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.operationId) continue;
      const pattern = template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+');
      documented.set(operation.operationId, { method: method.toUpperCase(), path: new RegExp(`^${pattern}$`) });
    }
  }
});
afterAll(async () => {
  await stack?.close();
});

/** One call of every method; typed so that a new client method without a row here fails to compile. */
const SAMPLE_CALLS: { [Name in keyof Operations]: (client: ApiClient) => Promise<unknown> } = {
  getSiteStatus: (c) => c.getSiteStatus(),
  setMaintenance: (c) => c.setMaintenance(false),
  getHomeStats: (c) => c.getHomeStats(),
  listAuditLog: (c) => c.listAuditLog({ limit: 1 }),
  listAuditLogActors: (c) => c.listAuditLogActors(),
  getLastOffice: (c) => c.getLastOffice(),
  queueChatMessage: (c) => c.queueChatMessage({ content: 'Hello' }),
  listTerms: (c) => c.listTerms(),
  createTerm: (c) => c.createTerm({ name: '2030', startDate: '2030-01-01', endDate: '2030-12-31' }),
  updateTerm: (c) => c.updateTerm(7, { name: '2031' }),
  deleteTerm: (c) => c.deleteTerm(7),
  previewTermChange: (c) => c.previewTermChange(7, {}),
  listPetitions: (c) => c.listPetitions({ pageSize: 1 }),
  getPetition: (c) => c.getPetition(7),
  listPetitionSigners: (c) => c.listPetitionSigners(7),
  getPetitionCount: (c) => c.getPetitionCount(7),
  getSignaturesByHour: (c) => c.getSignaturesByHour(7),
  getDailyAllowance: (c) => c.getDailyAllowance(),
  createPetition: (c) => c.createPetition({ title: 'A petition', description: 'Its text', tags: ['Budget'] }),
  assignPetitionTerm: (c) => c.assignPetitionTerm(7, null),
  setPetitionStatus: (c) => c.setPetitionStatus(7, 'closed'),
  signPetition: (c) => c.signPetition(7),
  unsignPetition: (c) => c.unsignPetition(7),
  deletePetition: (c) => c.deletePetition(7),
  deleteAllPetitions: (c) => c.deleteAllPetitions('no'),
  saveGovernmentResponse: (c) => c.saveGovernmentResponse(7, { response_text: 'A response', added_by_role: 'Minister' }),
  removeGovernmentResponse: (c) => c.removeGovernmentResponse(7),
  saveDebateInfo: (c) => c.saveDebateInfo(7, { status: 'scheduled' }),
  removeDebateInfo: (c) => c.removeDebateInfo(7),
  setPetitionStatuses: (c) => c.setPetitionStatuses({ items: [] }),
  getQueueChanges: (c) => c.getQueueChanges(),
  closeExpiredPetitions: (c) => c.closeExpiredPetitions(),
  reportPetition: (c) => c.reportPetition(7, { reason: 'spam' }),
  findSimilarPetitions: (c) => c.findSimilarPetitions('Fund the libraries'),
  listModerationQueue: (c) => c.listModerationQueue({ view: 'review' }),
  getModerationCase: (c) => c.getModerationCase(7),
  moderatePetition: (c) => c.moderatePetition(7, { decision: 'keep' }),
  moderatePetitions: (c) => c.moderatePetitions({ items: [] }),
  listRejectionReasons: (c) => c.listRejectionReasons(),
  saveRejectionReason: (c) => c.saveRejectionReason('spam', { title: 'Spam', publicText: 'It was spam.', hidden: false }),
  deleteRejectionReason: (c) => c.deleteRejectionReason('spam'),
  getBanStats: (c) => c.getBanStats(),
  listBans: (c) => c.listBans(),
  banUser: (c) => c.banUser('7', 'Spam'),
  unbanUser: (c) => c.unbanUser('7'),
  getUnusualSigning: (c) => c.getUnusualSigning(),
  previewInvalidation: (c) => c.previewInvalidation({ petitionId: 7 }),
  listInvalidations: (c) => c.listInvalidations(),
  getInvalidation: (c) => c.getInvalidation(7),
  requestInvalidation: (c) => c.requestInvalidation({ criteria: { petitionId: 7 }, reason: 'Alternate accounts' }),
  cancelInvalidation: (c) => c.cancelInvalidation(7),
  restoreInvalidation: (c) => c.restoreInvalidation(7, { reason: 'Genuine' }),
  startSignIn: (c) => c.startSignIn(),
  finishSignIn: (c) => c.finishSignIn('code', 'state'),
  getSession: (c) => c.getSession(),
  getSignedInUser: (c) => c.getSignedInUser('7'),
  signOut: (c) => c.signOut('7'),
  deleteMyData: (c) => c.deleteMyData('no'),
  getRetention: (c) => c.getRetention(),
  deleteMemberData: (c) => c.deleteMemberData('7', 'no'),
  listMyPetitions: (c) => c.listMyPetitions({ list: 'signed' }),
  listNotifications: (c) => c.listNotifications({ limit: 5 }),
  getUnreadNotificationCount: (c) => c.getUnreadNotificationCount(),
  markNotificationRead: (c) => c.markNotificationRead(7),
  markAllNotificationsRead: (c) => c.markAllNotificationsRead({ upTo: 7 }),
  getNotificationPreferences: (c) => c.getNotificationPreferences(),
  updateNotificationPreferences: (c) => c.updateNotificationPreferences({ push: true }),
  listMutedPetitions: (c) => c.listMutedPetitions(),
  getPushConfig: (c) => c.getPushConfig(),
  listPushSubscriptions: (c) => c.listPushSubscriptions(),
  savePushSubscription: (c) =>
    c.savePushSubscription({ endpoint: 'https://push.example/abc', keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } }),
  deletePushSubscription: (c) => c.deletePushSubscription(3),
  mutePetition: (c) => c.mutePetition(7),
  unmutePetition: (c) => c.unmutePetition(7),
  getNotificationAudience: (c) => c.getNotificationAudience(7, 'responses'),
  getStaffPresence: (c) => c.getStaffPresence(),
  setStaffPresence: (c) => c.setStaffPresence('console-client-0001', { petitionId: 7, activity: 'viewing' }),
  clearStaffPresence: (c) => c.clearStaffPresence('console-client-0001'),
  getQueueSummary: (c) => c.getQueueSummary(),
  getStatistics: (c) => c.getStatistics({ term: 7 }),
};

/** The address of every link, typed the same way. */
const SAMPLE_LINKS: { [Name in keyof ApiClient['links']]: (client: ApiClient) => string } = {
  exportPetitionsCsv: (c) => c.links.exportPetitionsCsv({ search: 'tree' }),
  exportAuditLogCsv: (c) => c.links.exportAuditLogCsv({ action: 'petition.delete', petition: 7 }),
  getAvatar: (c) => c.links.getAvatar('7'),
  streamSiteEvents: (c) => c.links.streamSiteEvents(7),
  streamStaffEvents: (c) => c.links.streamStaffEvents(),
};

describe('the typed client names its methods by operationId', () => {
  it('has a method or a link for every operation, and nothing else', () => {
    const client = createApiClient({ baseUrl: stack.baseUrl });
    const methods = Object.keys(client).filter((name) => !NOT_OPERATIONS.includes(name));
    const names = [...methods, ...Object.keys(client.links)].sort();
    expect(names).toEqual([...documented.keys()].sort());
    expect(methods.sort()).toEqual(Object.keys(SAMPLE_CALLS).sort());
    expect(Object.keys(client.links).sort()).toEqual(Object.keys(SAMPLE_LINKS).sort());
  });

  it('reaches, over HTTP, the method and path of the operation each method is named after', async () => {
    const seen: { method: string; path: string }[] = [];
    const recording: typeof fetch = (input, init) => {
      seen.push({ method: init?.method ?? 'GET', path: new URL(String(input)).pathname });
      return fetch(input, init);
    };
    const client = createApiClient({ baseUrl: stack.baseUrl, fetch: recording });
    const wrong: string[] = [];
    for (const [name, call] of Object.entries(SAMPLE_CALLS)) {
      seen.length = 0;
      // Most answers are refusals (nobody is signed in); only the request line matters here.
      await call(client).catch(() => undefined);
      const operation = documented.get(name);
      const request = seen[0];
      if (seen.length !== 1 || !operation || !request || request.method !== operation.method || !operation.path.test(request.path)) {
        wrong.push(`${name}: ${JSON.stringify(seen)}`);
      }
    }
    for (const [name, link] of Object.entries(SAMPLE_LINKS)) {
      const url = link(client);
      const operation = documented.get(name);
      if (!operation || operation.method !== 'GET' || !operation.path.test(new URL(url).pathname)) wrong.push(`${name}: ${url}`);
    }
    expect(wrong).toEqual([]);
  });
});
