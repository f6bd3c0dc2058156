/**
 * Named schemas of the OpenAPI document (components.schemas, referenced with $ref) and the examples
 * of the main bodies. The zod schemas stay in src-shared; this registry only names and illustrates
 * them for the document. Request bodies appear with an `Input` suffix (their accepted form).
 */
import { z } from 'zod';
import {
  BanBody,
  BanSchema,
  CreatePetitionBody,
  DebateBody,
  DebateInfoSchema,
  GovernmentResponseBody,
  PetitionDetailSchema,
  PetitionListSchema,
  PetitionSchema,
  ProblemSchema,
  SignerSchema,
  TermBody,
  TermSchema,
  UserSchema,
  ContributionMetaSchema,
} from '../../src-shared/domain/schemas.ts';
import {
  ModerationCaseSchema,
  ModerationDecisionBody,
  RejectionReasonBody,
  RejectionReasonSchema,
  ReportBody,
} from '../../src-shared/domain/moderation-schemas.ts';

/** Shaped as fastify-type-provider-zod's registry metadata: an id, plus JSON Schema keywords. */
interface DocumentedSchemaMeta {
  id?: string;
  [keyword: string]: unknown;
}

/**
 * zod's global registry: it also holds the `.meta()` of src-shared schemas (how ids are documented),
 * which the document must see. Only schemas given an `id` here become components.
 */
export const apiSchemaRegistry = z.globalRegistry;
const examplesById = new Map<string, unknown[]>();

function nameSchema(schema: z.ZodType, meta: DocumentedSchemaMeta & { id: string }): void {
  apiSchemaRegistry.add(schema, meta);
  if (Array.isArray(meta.examples)) examplesById.set(meta.id, meta.examples);
}

const PETITION_EXAMPLE = {
  id: 52,
  title: 'Fund public libraries in every town',
  description: 'Every town should keep its public library open at least five days a week, with study rooms for all.',
  creator: 'Citizen Kane',
  creator_id: '2001',
  tags: ['Culture', 'Education'],
  category: 'General',
  termId: 3,
  status: 'government_response',
  signatures: 14,
  created: '2026-03-01T10:00:00.000Z',
  closureReason: null,
  closedAt: null,
  governmentResponse: 'The Government will fund public libraries in every region from next April.',
  governmentResponseMeta: {
    addedBy: 'Cabinet Minister',
    addedByRole: 'Chancellor of the Exchequer',
    addedAt: '2026-03-04T09:30:00.000Z',
    editedBy: null,
    editedByRole: null,
    editedAt: null,
  },
  debateInfo: null,
  debateInfoMeta: null,
  version: 3,
};

nameSchema(ProblemSchema, {
  id: 'Problem',
  description: 'RFC 9457 Problem Details. `detail` is the text to show.',
  examples: [{ type: 'about:blank', title: 'Forbidden', status: 403, detail: 'Unauthorized: Only British Citizens can sign petitions' }],
});
nameSchema(PetitionSchema, { id: 'Petition', examples: [PETITION_EXAMPLE] });
nameSchema(PetitionDetailSchema, {
  id: 'PetitionDetail',
  examples: [
    {
      ...PETITION_EXAMPLE,
      signers: [{ id: '2001', username: 'citizen', displayName: 'Citizen Kane', avatar: '/avatar/2001', signed_at: '2026-03-01T10:00:00.000Z' }],
      signed_by_viewer: false,
      reported_by_viewer: false,
      viewer_signing_refusal: null,
    },
  ],
});
nameSchema(PetitionListSchema, { id: 'PetitionList' });
nameSchema(SignerSchema, { id: 'Signer' });
nameSchema(ContributionMetaSchema, { id: 'ContributionMeta' });
nameSchema(DebateInfoSchema, { id: 'DebateInfo' });
nameSchema(TermSchema, { id: 'Term' });
nameSchema(UserSchema, { id: 'User' });
nameSchema(BanSchema, { id: 'Ban' });
nameSchema(CreatePetitionBody, {
  id: 'CreatePetition',
  examples: [
    {
      title: 'Fund public libraries in every town',
      description: 'Every town should keep its public library open at least five days a week, with study rooms for all.',
      tags: ['Culture', 'Education'],
    },
  ],
});
nameSchema(GovernmentResponseBody, {
  id: 'GovernmentResponse',
  examples: [{ response_text: 'The Government will fund public libraries in every region from next April.', added_by_role: 'Chancellor of the Exchequer' }],
});
nameSchema(DebateBody, {
  id: 'Debate',
  examples: [
    { status: 'scheduled', date: '2026-06-01', location: 'Westminster Hall' },
    { status: 'debated', date: '2026-06-01', hansard_url: 'https://hansard.parliament.uk/commons/2026-06-01/debates/1' },
  ],
});
nameSchema(TermBody, {
  id: 'TermRequest',
  examples: [{ name: 'Term 88', startDate: '2027-01-01', endDate: '2027-12-31', status: null }],
});
nameSchema(BanBody, { id: 'BanRequest', examples: [{ reason: 'Repeated spam petitions' }] });
nameSchema(ReportBody, {
  id: 'ReportRequest',
  examples: [{ reason: 'spam' }, { reason: 'duplicate', duplicateOf: 12 }, { reason: 'other', details: 'It names a pupil at my school.' }],
});
nameSchema(ModerationDecisionBody, {
  id: 'ModerationDecision',
  examples: [{ decision: 'keep' }, { decision: 'hide', reason: 'Checking whether the named person agreed' }, { decision: 'reject', reasonCode: 'duplicate' }, { decision: 'restore' }],
});
nameSchema(RejectionReasonBody, {
  id: 'RejectionReasonRequest',
  examples: [{ title: 'Advertising or spam', publicText: 'It advertised a product or service, or was spam.', hidden: false }],
});
nameSchema(ModerationCaseSchema, { id: 'ModerationCase' });
nameSchema(RejectionReasonSchema, { id: 'RejectionReason' });

interface OpenApiLike {
  paths?: unknown;
  components?: { schemas?: Record<string, unknown> };
}

function collectRefs(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, into);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.add(value);
      else collectRefs(value, into);
    }
  }
}

/**
 * The registry yields an input and an output form of every named schema; only the ones the
 * operations reach (directly or through other schemas) stay in the document.
 */
export function keepReachableSchemas<T extends object>(input: T): T {
  const document = input as OpenApiLike;
  const schemas = document.components?.schemas;
  if (!schemas) return input;
  const prefix = '#/components/schemas/';
  const reached = new Set<string>();
  const pending: string[] = [];
  const visit = (node: unknown) => {
    const refs = new Set<string>();
    collectRefs(node, refs);
    for (const ref of refs) {
      if (!ref.startsWith(prefix)) continue;
      const target = ref.slice(prefix.length);
      if (!reached.has(target)) {
        reached.add(target);
        pending.push(target);
      }
    }
  };
  visit(document.paths);
  while (pending.length > 0) visit(schemas[pending.pop() ?? '']);
  const kept = Object.fromEntries(
    Object.entries(schemas)
      .filter(([schemaName]) => reached.has(schemaName))
      // zod drops the examples of some refined schemas on the way to JSON Schema; put them back.
      .map(([schemaName, schema]) => {
        const examples = examplesById.get(schemaName.replace(/Input$/, ''));
        return [schemaName, examples && schema && typeof schema === 'object' ? { ...schema, examples } : schema];
      }),
  );
  return { ...input, components: { ...document.components, schemas: kept } };
}
