/**
 * Everything about community safety a petition page may show (docs/moderation.md), as one lazy
 * chunk: the report button and dialog, the hidden or rejected notice for the creator and moderators,
 * and the public's tombstone of a rejected petition. Kept out of the page's first download (its
 * budget: tests/renderer-unit/bundle-budget.test.ts).
 */
import type { PetitionDetail, PublicRejection } from '../../../src-shared/domain/schemas.ts';
import { ModerationNotice, RejectedPetitionPage } from './ModerationNotice.tsx';
import ReportSection from './ReportSection.tsx';

export type PetitionModerationProps =
  | { part: 'notice'; petition: PetitionDetail }
  | { part: 'report'; petition: PetitionDetail }
  | { part: 'tombstone'; rejection: PublicRejection | null };

export default function PetitionModeration(props: PetitionModerationProps) {
  switch (props.part) {
    case 'notice':
      return <ModerationNotice petition={props.petition} />;
    case 'report':
      return <ReportSection petition={props.petition} />;
    case 'tombstone':
      return <RejectedPetitionPage rejection={props.rejection} />;
  }
}
