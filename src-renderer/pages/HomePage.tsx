/** Home: not-in-session banner, hero, term stats, search, top 5 of the term, 'Start your own petition'. */
import { useNavigate } from '../navigation.ts';
import { Link } from '../components/Link.tsx';
import {
  DAILY_PETITION_LIMIT,
  DEBATE_THRESHOLD,
  POPULAR_PETITIONS_COUNT,
  RESPONSE_THRESHOLD,
} from '../../src-shared/domain/constants.ts';
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import type { HomeStats } from '../../src-shared/domain/schemas.ts';
import { canCreatePetition } from '../../src-shared/rules/permissions.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiGetHomeStats, apiListPetitions } from '../../src-shared/api/visitor-calls.ts';
import { usePetitionsVersion, useSession, useSite } from '../stores/index.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useDailyAllowance } from '../hooks/useDailyAllowance.ts';
import { BanNotice } from '../components/BanNotice.tsx';
import { Notice } from '../components/Notice.tsx';
import { SearchForm } from '../components/SearchForm.tsx';
import { PetitionCard } from '../components/PetitionCard.tsx';
import { Loading } from '../components/Loading.tsx';
import { formatCount } from '../components/format.ts';
import { termPetitionsPath } from '../routes.ts';

export const HOME_TEXT = {
  notInSessionBanner: 'Parliament is not currently in session',
  notInSessionBannerDetail: 'New petitions are not being accepted until the next parliamentary term begins.',
  notInSessionBoxTitle: 'Parliament Not In Session:',
  notInSessionBoxText: 'New petitions cannot be created at this time.',
  rateLimitTitle: 'Rate Limit:',
  rateLimitText: `You can create ${DAILY_PETITION_LIMIT} petitions per day`,
  /** Why the start button is off at the limit: the create form's own banner text. */
  rateLimitReason: SITE_ERRORS.dailyLimit.replace(/^Daily Limit Reached: /, ''),
  rateLimitButton: 'Daily Limit Reached',
  noTermHeading: 'No current term',
  noTermText: 'No parliamentary term is in progress, so there are no figures for this term.',
  firstSigner: "When you create a petition, you'll be the first to automatically sign it.",
  notInSessionExplanation:
    'Petitions can only be created when Parliament is in session. Please check back when the next parliamentary term begins.',
  checking: 'Checking Parliament Status...',
  start: 'Start a petition',
  notInSessionButton: 'Parliament Not In Session',
  nonCitizen: 'You need to be a British Citizen to create petitions.',
  insufficient: 'Insufficient Permissions',
  visitor: 'Connect your ROBLOX account to start creating petitions',
  connect: 'Connect Account to Start',
  banned: 'Banned from creating petitions',
} as const;

type StatsState = ReturnType<typeof useAsync<HomeStats>>;

function HomeStatsBlock({ stats }: { stats: StatsState }) {
  if (stats.status === 'loading' && !stats.data) return <Loading text="Loading statistics..." className="loading--stats" />;
  if (!stats.data) return null; // Load failures show nothing rather than an error (docs/rules.md#texts-and-messages)
  const s = stats.data;
  if (s.termId === null) {
    return (
      <section className="stats" aria-labelledby="stats-heading">
        <h2 className="heading-m" id="stats-heading">
          {HOME_TEXT.noTermHeading}
        </h2>
        <p>{HOME_TEXT.noTermText}</p>
      </section>
    );
  }
  const items = [
    { value: s.created, label: s.created === 1 ? 'petition created' : 'petitions created' },
    { value: s.responded, label: s.responded === 1 ? 'petition with a government response' : 'petitions with a government response' },
    { value: s.debated, label: s.debated === 1 ? 'petition debated in Parliament' : 'petitions debated in Parliament' },
  ];
  return (
    <section className="stats" aria-labelledby="stats-heading">
      <h2 className="heading-m" id="stats-heading">
        {s.termName ? `This term: ${s.termName}` : 'This term'}
      </h2>
      <ul className="stats__list">
        {items.map((item) => (
          <li className="stats__item" key={item.label}>
            <span className="stats__value">{formatCount(item.value)}</span>
            <span className="stats__label">{item.label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function HomeSearch() {
  const navigate = useNavigate();
  const search = (text: string) => navigate(text ? `/petitions?search=${encodeURIComponent(text)}` : '/petitions');
  return (
    <section className="search-block" aria-labelledby="home-search-heading">
      <h2 className="heading-m" id="home-search-heading">
        Find a petition
      </h2>
      <SearchForm id="home-search" onSearch={search} />
    </section>
  );
}

function PopularPetitions({ stats }: { stats: StatsState }) {
  const version = usePetitionsVersion((s) => s.version);
  const terms = useSite((s) => s.terms);
  const termId = stats.data?.termId ?? null;
  const ready = stats.status !== 'loading';
  const list = useAsync(
    () =>
      ready
        ? apiListPetitions(apiCaller, {
            sort: 'most_signatures',
            pageSize: POPULAR_PETITIONS_COUNT,
            ...(termId !== null ? { term: termId } : {}),
          })
        : new Promise<never>(() => {}),
    [ready, termId, version],
  );
  const termLabel = termId !== null ? (terms.find((t) => t.id === termId)?.name ?? stats.data?.termName) : null;
  return (
    <section className="popular" aria-labelledby="popular-heading">
      <h2 className="heading-l" id="popular-heading">
        Popular petitions{termLabel ? ` in ${termLabel}` : ''}
      </h2>
      {list.status === 'loading' && !list.data ? <Loading text="Loading petitions..." className="loading--cards" /> : null}
      {list.data && list.data.items.length === 0 ? <p>There are no petitions in this term yet.</p> : null}
      {list.data && list.data.items.length > 0 ? (
        <ol className="card-list">
          {list.data.items.map((p) => (
            <li key={p.id}>
              <PetitionCard petition={p} />
            </li>
          ))}
        </ol>
      ) : null}
      <p>
        <Link className="link-strong" to={termId !== null ? termPetitionsPath(termId) : '/petitions'}>
          View all petitions
        </Link>
      </p>
    </section>
  );
}

export type StartBlockState = 'checking' | 'not-in-session' | 'visitor' | 'non-citizen' | 'banned' | 'rate-limited' | 'ready';

export function startBlockState(input: {
  inSession: boolean | null;
  sessionLoading: boolean;
  signedIn: boolean;
  canCreate: boolean;
  limitReached: boolean;
  banned?: boolean;
}): StartBlockState {
  if (input.inSession === null || input.sessionLoading) return 'checking';
  if (!input.inSession) return 'not-in-session';
  if (!input.signedIn) return 'visitor';
  if (!input.canCreate) return 'non-citizen';
  if (input.banned) return 'banned';
  if (input.limitReached) return 'rate-limited';
  return 'ready';
}

export function StartPetitionBlockView({ state, banReason = null }: { state: StartBlockState; banReason?: string | null }) {
  return (
    <section className="start-block" aria-labelledby="start-heading">
      <h2 className="heading-l" id="start-heading">
        Start your own petition
      </h2>
      {state === 'not-in-session' ? (
        <Notice tone="error">
          <p>
            <strong>{HOME_TEXT.notInSessionBoxTitle}</strong> {HOME_TEXT.notInSessionBoxText}
          </p>
        </Notice>
      ) : null}
      {state === 'rate-limited' ? (
        <Notice tone="orange">
          <p>
            <strong>{HOME_TEXT.rateLimitTitle}</strong> {HOME_TEXT.rateLimitText}
          </p>
        </Notice>
      ) : null}
      {state === 'banned' ? <BanNotice reason={banReason} /> : null}
      {state === 'not-in-session' ? <p>{HOME_TEXT.notInSessionExplanation}</p> : null}
      {state === 'visitor' ? <p>{HOME_TEXT.visitor}</p> : null}
      {state === 'non-citizen' ? <p>{HOME_TEXT.nonCitizen}</p> : null}
      {state === 'rate-limited' ? <p>{HOME_TEXT.rateLimitReason}</p> : null}
      {state === 'ready' || state === 'checking' ? <p>{HOME_TEXT.firstSigner}</p> : null}
      {state === 'checking' ? (
        <button type="button" className="button" disabled>
          {HOME_TEXT.checking}
        </button>
      ) : null}
      {state === 'not-in-session' ? (
        <button type="button" className="button" disabled>
          {HOME_TEXT.notInSessionButton}
        </button>
      ) : null}
      {state === 'visitor' ? (
        <button type="button" className="button" disabled>
          {HOME_TEXT.connect}
        </button>
      ) : null}
      {state === 'non-citizen' ? (
        <button type="button" className="button" disabled>
          {HOME_TEXT.insufficient}
        </button>
      ) : null}
      {state === 'rate-limited' ? (
        <button type="button" className="button" disabled>
          {HOME_TEXT.rateLimitButton}
        </button>
      ) : null}
      {state === 'banned' ? (
        <button type="button" className="button" disabled>
          {HOME_TEXT.banned}
        </button>
      ) : null}
      {state === 'ready' ? (
        <Link className="button button--start" to="/create-petition">
          {HOME_TEXT.start}
          <svg className="button__arrow" viewBox="0 0 33 40" width="17" height="19" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M0 0h13l20 20-20 20H0l20-20z" />
          </svg>
        </Link>
      ) : null}
    </section>
  );
}

function StartPetitionBlock() {
  const inSession = useSite((s) => s.inSession);
  const user = useSession((s) => s.user);
  const sessionLoading = useSession((s) => s.status === 'loading');
  const canCreate = canCreatePetition(user);
  const { limitReached, banned, banReason } = useDailyAllowance(Boolean(user) && canCreate);
  const state = startBlockState({ inSession, sessionLoading, signedIn: Boolean(user), canCreate, limitReached, banned });
  return <StartPetitionBlockView state={state} banReason={banReason} />;
}

export function HomePage() {
  useDocumentTitle(null);
  const inSession = useSite((s) => s.inSession);
  const version = usePetitionsVersion((s) => s.version);
  const stats = useAsync(() => apiGetHomeStats(apiCaller), [version]);
  return (
    <>
      {inSession === false ? (
        <Notice tone="error" className="session-banner">
          <p className="notice__title">{HOME_TEXT.notInSessionBanner}</p>
          <p>{HOME_TEXT.notInSessionBannerDetail}</p>
        </Notice>
      ) : null}
      <section className="hero" aria-labelledby="hero-heading">
        <h1 className="heading-xl" id="hero-heading">
          Petitions
        </h1>
        <p className="body-l">
          Ask the Government and Parliament of our community to act. Petitions with {RESPONSE_THRESHOLD} signatures get a
          government response, and petitions with {DEBATE_THRESHOLD} signatures are considered for a debate in Parliament.
        </p>
      </section>
      {/* DOM order is the phone order (start block high up); on wide screens it moves to a side column. */}
      <div className="home-grid">
        <div className="home-grid__stats">
          <HomeStatsBlock stats={stats} />
        </div>
        <div className="home-grid__start">
          <StartPetitionBlock />
        </div>
        <div className="home-grid__search">
          <HomeSearch />
        </div>
        <div className="home-grid__popular">
          <PopularPetitions stats={stats} />
        </div>
      </div>
    </>
  );
}
