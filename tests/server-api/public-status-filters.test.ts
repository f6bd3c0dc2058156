/**
 * The SQL of every status filter must accept exactly the petitions the shared classification
 * accepts. A grid of statuses × signature counts × responses × debate outcomes covers every branch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PETITION_STATUSES, STATUS_FILTERS, type StatusFilter } from '../../src-shared/domain/constants.ts';
import type { Petition, PetitionList } from '../../src-shared/domain/schemas.ts';
import {
  hasGovernmentResponse,
  isAwaitingDebate,
  isAwaitingResponse,
  isDebated,
  isNotDebated,
} from '../../src-shared/rules/classification.ts';
import { listPetitionIds } from '../../src-server/petitions/petition-queries.ts';
import { toPetition } from '../../src-server/petitions/petition-record.ts';
import type { NewPetitionRow } from '../../src-server/db/schema.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';

const PREDICATES: Record<StatusFilter, (p: Petition) => boolean> = {
  all: () => true,
  open: (p) => p.status !== 'closed',
  closed: (p) => p.status === 'closed',
  awaiting_response: isAwaitingResponse,
  with_response: hasGovernmentResponse,
  awaiting_debate: isAwaitingDebate,
  debated: isDebated,
  not_debated: isNotDebated,
};

const SIGNATURES = [0, 9, 10, 19, 20, 35];
const RESPONSES = [null, '', 'The Government responds.'];
const DEBATES = [
  null,
  '',
  'null',
  ...(['scheduled', 'debated', 'cancelled', 'not_debated'] as const).map((status) =>
    JSON.stringify({ status, date: '2026-05-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null }),
  ),
];

let api: TestApi;
let petitions: Petition[];

beforeAll(async () => {
  api = await startTestApi();
  const stamp = '2026-01-01T00:00:00.000Z';
  const rows: NewPetitionRow[] = [];
  for (const status of PETITION_STATUSES)
    for (const signatures of SIGNATURES)
      for (const response of RESPONSES)
        for (const debate of DEBATES)
          rows.push({
            title: `${status} ${signatures} ${response} ${debate}`,
            description: 'Grid petition for the status filter equivalence test.',
            creator_name: 'Grid',
            creator_id: '1',
            tags: '["Laws"]',
            category: 'General',
            term_id: null,
            status,
            closure_reason: null,
            closed_at: null,
            signature_count: signatures,
            government_response: response,
            government_response_meta: null,
            debate_info: debate,
            debate_info_meta: null,
            version: 1,
            created_at: stamp,
            updated_at: stamp,
          });
  await api.context.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200) await trx.insertInto('petitions').values(rows.slice(i, i + 200)).execute();
  });
  petitions = (await api.context.db.selectFrom('petitions').selectAll().execute()).map(toPetition);
});

afterAll(async () => {
  await api.close();
});

describe('status filters in SQL', () => {
  it('covers a grid with every status, threshold, response and debate outcome', () => {
    expect(petitions).toHaveLength(PETITION_STATUSES.length * SIGNATURES.length * RESPONSES.length * DEBATES.length);
  });

  it.each(STATUS_FILTERS.map((filter) => filter.value))('%s selects exactly what the shared predicate accepts', async (filter) => {
    const fromRules = petitions.filter(PREDICATES[filter]);
    expect(fromRules.length).toBeGreaterThan(0);
    // Walking the creation order tests thresholds on the count alone; the fewest-signatures order of a
    // late-stage filter reads them through the band (classification-sql.ts, countReaches): both must agree.
    const walked = await listPetitionIds(api.context.db, api.context.dialect, { status: filter }, 'oldest', 100_000);
    expect(walked.sort((a, b) => a - b)).toEqual(fromRules.map((p) => p.id).sort((a, b) => a - b));
    const fewestFirst = await listPetitionIds(api.context.db, api.context.dialect, { status: filter }, 'fewest_signatures', 100_000);
    expect(fewestFirst).toEqual(fromRules.sort((a, b) => a.signatures - b.signatures || a.id - b.id).map((p) => p.id));
  });

  it.each(STATUS_FILTERS.map((filter) => filter.value))('GET /api/petitions?status=%s reports the same total', async (filter) => {
    const response = await api.request({ url: `/api/petitions?status=${filter}&pageSize=100` });
    expect(response.statusCode).toBe(200);
    const body = response.json<PetitionList>();
    expect(body.total).toBe(petitions.filter(PREDICATES[filter]).length);
    expect(body.items.every(PREDICATES[filter])).toBe(true);
  });
});
