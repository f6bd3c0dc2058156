/** Previous / page n of m / Next links. `hrefFor(page)` builds each link so the page stays in the URL. */
import { Link } from './Link.tsx';

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

export function Pagination({
  page,
  total,
  pageSize,
  hrefFor,
}: {
  page: number;
  total: number;
  pageSize: number;
  hrefFor: (page: number) => string;
}) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      {page > 1 ? (
        <Link className="pagination__link" to={hrefFor(page - 1)} rel="prev">
          <span aria-hidden="true">‹ </span>Previous<span className="visually-hidden"> page</span>
        </Link>
      ) : null}
      <p className="pagination__position">
        Page {page} of {pages}
      </p>
      {page < pages ? (
        <Link className="pagination__link" to={hrefFor(page + 1)} rel="next">
          Next<span className="visually-hidden"> page</span>
          <span aria-hidden="true"> ›</span>
        </Link>
      ) : null}
    </nav>
  );
}
