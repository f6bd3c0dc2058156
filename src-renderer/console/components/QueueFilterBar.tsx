/**
 * A queue's filters: search by number or title, term, tag and order (QueueScreen.tsx). Part of the
 * workspace frame's chunk (workspaceFrame.tsx), requested by the workspace's first render.
 */
import type { Term } from '../../../src-shared/domain/schemas.ts';
import { TagOptions, TermOptions } from '../../components/PetitionOptions.tsx';
import { QUEUES } from '../queues.ts';
import type { QueueKind, QueueSort } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { ConsoleFilter } from './ConsoleFilter.tsx';

const NO_TERMS: Term[] = [];

export function QueueFilterBar({ kind }: { kind: QueueKind }) {
  const { data } = useStores();
  const filters = data((s) => s.filters[kind]);
  const terms = data((s) => s.terms.data) ?? NO_TERMS;
  const title = QUEUES[kind].title;
  return (
    <form className="console-filters" role="search" aria-label={`Filter ${title}`} onSubmit={(e) => e.preventDefault()}>
      <ConsoleFilter id={`${kind}-search`} label="Search by number or title">
        <input
          id={`${kind}-search`}
          className="input"
          type="search"
          autoComplete="off"
          value={filters.search}
          onChange={(e) => data.getState().setFilters(kind, { search: e.target.value })}
        />
      </ConsoleFilter>
      <ConsoleFilter id={`${kind}-term`} label="Term">
        <select
          id={`${kind}-term`}
          className="select"
          value={filters.term ?? ''}
          onChange={(e) => data.getState().setFilters(kind, { term: e.target.value ? Number(e.target.value) : null })}
        >
          <option value="">All terms</option>
          <TermOptions terms={terms} />
        </select>
      </ConsoleFilter>
      <ConsoleFilter id={`${kind}-tag`} label="Tag">
        <select
          id={`${kind}-tag`}
          className="select"
          value={filters.tag ?? ''}
          onChange={(e) => data.getState().setFilters(kind, { tag: e.target.value || null })}
        >
          <TagOptions />
        </select>
      </ConsoleFilter>
      <ConsoleFilter id={`${kind}-sort`} label="Order">
        <select
          id={`${kind}-sort`}
          className="select"
          value={filters.sort}
          onChange={(e) => data.getState().setFilters(kind, { sort: e.target.value as QueueSort })}
        >
          <option value="signatures">Most signatures first</option>
          <option value="waiting">Waiting longest first</option>
        </select>
      </ConsoleFilter>
    </form>
  );
}
