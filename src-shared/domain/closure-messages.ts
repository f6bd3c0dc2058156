/**
 * A closed petition's notice (docs/statuses.md#classification), apart from the other texts (messages.ts
 * re-exports it) so that only the pages that show petitions carry it (docs/operations.md#javascript-weight).
 */
export const CLOSURE_NOTICE = {
  heading: 'Petition Closed',
  termEnded: 'This petition was automatically closed due to the parliamentary term ending.',
  insufficientSignatures:
    'This petition was automatically closed after 3 weeks due to insufficient signatures (minimum 10 required).',
  noMoreSignatures: 'This petition is closed',
  noMoreSignaturesDetail: 'No more signatures can be added',
} as const;
