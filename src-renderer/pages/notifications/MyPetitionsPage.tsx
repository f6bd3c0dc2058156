/**
 * /my-petitions: the petitions the signed-in member created, or signed (`?list=created|signed`,
 * paged with `?page=`), each with its status, signature count and latest news ("Government
 * responded on 3 December 2026"), and "Stop updates" / "Resume updates" for it.
 */
import { useSearchParams } from '../../navigation.ts';
import { Link } from '../../components/Link.tsx';
import { MY_PETITION_LISTS, type MyPetitionList } from '../../../src-shared/domain/feed-constants.ts';
import type { MyPetition } from '../../../src-shared/domain/feed-schemas.ts';
import { formatLongDate } from '../../../src-shared/rules/dates.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Pagination } from '../../components/Pagination.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { TagList } from '../../components/TagList.tsx';
import { signaturesText } from '../../components/format.ts';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiListMyPetitions } from '../../../src-shared/api/member-calls.ts';
import { useSession } from '../../stores/index.ts';
import { SignInPrompt } from './SignInPrompt.tsx';
import { FEED_TEXTS, MY_PETITIONS_TEXTS } from './texts.ts';
import { useMuteToggle } from './useMuteToggle.ts';
import './notifications.css';

const LABELS: Record<MyPetitionList, string> = { created: MY_PETITIONS_TEXTS.created, signed: MY_PETITIONS_TEXTS.signed };

export function readList(params: URLSearchParams): { list: MyPetitionList; page: number } {
  const raw = params.get('list');
  const list = MY_PETITION_LISTS.find((l) => l === raw) ?? 'created';
  // Digits only, as the API takes them: '1e3' or '+2' is not a page number.
  const text = params.get('page') ?? '';
  const page = /^[1-9]\d{0,4}$/.test(text) ? Number(text) : 1;
  return { list, page };
}

const hrefFor = (list: MyPetitionList, page = 1) => `/my-petitions?list=${list}${page > 1 ? `&page=${page}` : ''}`;

function PetitionRow({ petition, list, busy, onMute }: { petition: MyPetition; list: MyPetitionList; busy: boolean; onMute: (mute: boolean) => void }) {
  const when = list === 'signed' && petition.signedAt ? `Signed on ${formatLongDate(petition.signedAt)}` : `Created on ${formatLongDate(petition.created)}`;
  return (
    <article className="card mine-item">
      <StatusBadge status={petition.status} />
      <h2 className="heading-s mine-item__title">
        <Link to={`/petition/${petition.id}`}>{petition.title}</Link>
      </h2>
      <p className="mine-item__latest">
        <span className="mine-item__label">{MY_PETITIONS_TEXTS.latest}: </span>
        {petition.latestEvent ? petition.latestEvent.summary : MY_PETITIONS_TEXTS.noEventsYet}
      </p>
      <p className="mine-item__meta">
        <span>{signaturesText(petition.signatures)}</span>
        <span>{when}</span>
      </p>
      <TagList tags={petition.tags} />
      <button type="button" className="button button--secondary" disabled={busy} onClick={() => onMute(!petition.muted)}>
        {petition.muted ? FEED_TEXTS.resumeUpdates : FEED_TEXTS.stopUpdates}
        <span className="visually-hidden">: {petition.title}</span>
      </button>
    </article>
  );
}

function MyPetitionsList({ list, page }: { list: MyPetitionList; page: number }) {
  const data = useAsync(() => apiListMyPetitions(apiCaller, { list, page }), [list, page]);
  const mute = useMuteToggle((petitionId, muted) =>
    data.setData((current) => ({ ...current!, items: current!.items.map((p) => (p.id === petitionId ? { ...p, muted } : p)) })),
  );
  const result = data.data;
  return (
    <>
      {data.status === 'loading' && !result ? <Loading text="Loading your petitions..." /> : null}
      {data.status === 'error' || mute.failed !== null ? (
        <Notice tone="error" live="alert">
          <p>{result ? FEED_TEXTS.actionFailed : MY_PETITIONS_TEXTS.loadFailed}</p>
        </Notice>
      ) : null}
      {result ? (
        <p className="count-line" role="status">
          {result.total === 1 ? '1 petition' : `${result.total.toLocaleString('en-GB')} petitions`}
        </p>
      ) : null}
      {result && result.items.length === 0 ? (
        <p className="empty">
          {list === 'created' ? (
            <>
              {MY_PETITIONS_TEXTS.emptyCreated} <Link to="/create-petition">Start a petition</Link>
            </>
          ) : (
            <>
              {MY_PETITIONS_TEXTS.emptySigned} <Link to="/petitions">Browse all petitions</Link>
            </>
          )}
        </p>
      ) : null}
      {result && result.items.length > 0 ? (
        <ol className="card-list" aria-busy={data.status === 'loading' || undefined}>
          {result.items.map((petition) => (
            <li key={petition.id}>
              <PetitionRow petition={petition} list={list} busy={mute.busy === petition.id} onMute={(m) => void mute.toggle(petition.id, m)} />
            </li>
          ))}
        </ol>
      ) : null}
      {result ? <Pagination page={page} total={result.total} pageSize={result.pageSize} hrefFor={(p) => hrefFor(list, p)} /> : null}
    </>
  );
}

export function MyPetitionsPage() {
  useDocumentTitle(MY_PETITIONS_TEXTS.pageTitle);
  const [params] = useSearchParams();
  const { list, page } = readList(params);
  const user = useSession((s) => s.user);
  const loading = useSession((s) => s.status === 'loading');
  return (
    <>
      <h1 className="heading-xl">{MY_PETITIONS_TEXTS.pageTitle}</h1>
      {loading ? <Loading text="Checking your account..." /> : null}
      {!loading && !user ? <SignInPrompt title={MY_PETITIONS_TEXTS.signInTitle} text={MY_PETITIONS_TEXTS.signInText} /> : null}
      {user ? (
        <>
          <nav className="tabs" aria-label={MY_PETITIONS_TEXTS.tabsLabel}>
            <ul className="tabs__list">
              {MY_PETITION_LISTS.map((l) => (
                <li key={l}>
                  <Link className="tabs__tab" to={hrefFor(l)} aria-current={l === list ? 'page' : undefined}>
                    {LABELS[l]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <MyPetitionsList key={`${user.id}:${list}`} list={list} page={page} />
        </>
      ) : null}
    </>
  );
}
