/**
 * The term list beside the create-term form, as the web's term management and the console's
 * terms screen show them. `onChanged` runs after a term is created, edited or deleted.
 */
import type { Term } from '../../../src-shared/domain/schemas.ts';
import type { AsyncState } from '../../hooks/useAsync.ts';
import { CreateTerm } from './CreateTerm.tsx';
import { TermList } from './TermList.tsx';

export function TermsGrid({
  terms,
  onRetry,
  onChanged,
}: {
  terms: AsyncState<Term[]>;
  onRetry: () => void;
  onChanged: () => void;
}) {
  return (
    <div className="staff-grid">
      <TermList
        terms={terms.data ?? []}
        loading={terms.status === 'loading'}
        loadFailed={terms.status === 'error'}
        onRetry={onRetry}
        onChanged={onChanged}
      />
      <CreateTerm onCreated={onChanged} />
    </div>
  );
}
