/** Server-side renders of the components that carry spec texts (no DOM library needed). */
import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { CLOSURE_NOTICE } from '../../src-shared/domain/messages.ts';
import { StatusBadge } from '../../src-renderer/components/StatusBadge.tsx';
import { PetitionCard } from '../../src-renderer/components/PetitionCard.tsx';
import { Footer } from '../../src-renderer/components/Footer.tsx';
import { ErrorSummary } from '../../src-renderer/components/ErrorSummary.tsx';
import { Field } from '../../src-renderer/components/Field.tsx';
import { Notice } from '../../src-renderer/components/Notice.tsx';
import { ConfirmDialog } from '../../src-renderer/components/Dialog.tsx';
import { FatalErrorScreen, ComponentErrorScreen } from '../../src-renderer/components/ErrorBoundary.tsx';
import { StartPetitionBlockView } from '../../src-renderer/pages/HomePage.tsx';
import type { StartBlockState } from '../../src-renderer/pages/HomePage.tsx';
import { ClosedNotice, DebateBox } from '../../src-renderer/pages/detail/PetitionBoxes.tsx';
import { SignersList } from '../../src-renderer/components/SignersList.tsx';
import { NotFoundPage, MaintenancePage } from '../../src-renderer/pages/SimplePages.tsx';

const render = (node: ReactNode) => renderToString(<MemoryRouter>{node}</MemoryRouter>);
/** Text content without tags, whitespace collapsed, entities decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/ ([.,:!?])/g, '$1')
    .trim();

const petition: Petition = {
  id: 7,
  title: 'Build more roads in Bloxburg',
  description: 'Roads are too narrow and traffic is terrible at peak hours in the capital city.',
  creator: 'citizen',
  creator_id: '1001',
  tags: ['Budget', 'Public Services'],
  category: 'General',
  termId: 2,
  status: 'debated_in_parliament',
  signatures: 21,
  created: '2026-11-02T10:00:00Z',
  closureReason: null,
  closedAt: null,
  governmentResponse: 'The Government will look into it.',
  governmentResponseMeta: null,
  debateInfo: { status: 'debated', date: '2026-11-20', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null },
  debateInfoMeta: null,
  version: 3,
};

describe('StatusBadge', () => {
  it('uses the status colours and labels', () => {
    expect(render(<StatusBadge status="open" />)).toContain('badge--green');
    expect(render(<StatusBadge status="closed" />)).toContain('badge--red');
    expect(render(<StatusBadge status="government_response" />)).toContain('badge--blue');
    expect(render(<StatusBadge status="debated_in_parliament" />)).toContain('badge--purple');
    expect(render(<StatusBadge status="not_debated_in_parliament" />)).toContain('badge--grey');
    const other = render(<StatusBadge status="under_review" />);
    expect(other).toContain('badge--yellow');
    expect(text(other)).toBe('Under review');
  });
});

describe('PetitionCard', () => {
  it('shows badge, title link, description, response, debate, date, count and tags', () => {
    const html = render(<PetitionCard petition={petition} />);
    expect(html).toContain('href="/petition/7"');
    const t = text(html);
    for (const part of [
      'Debated in Parliament',
      'Build more roads in Bloxburg',
      'Roads are too narrow',
      'Government responded',
      'The Government will look into it.',
      'This petition was debated on 20 November 2026',
      '2 November 2026',
      '21 signatures',
      'Budget',
      'Public Services',
    ]) {
      expect(t).toContain(part);
    }
  });
});

describe('Footer', () => {
  it('has the three groups, thresholds and notices', () => {
    const t = text(render(<Footer />));
    for (const part of [
      'Navigation',
      'Home',
      'Create Petition',
      'View All Petitions',
      'Legal',
      'How it works',
      '10 signatures',
      '20 signatures',
      'Not affiliated with the UK Government.',
      'You must be 13 or older to use this site.',
    ]) {
      expect(t).toContain(part);
    }
  });
});

describe("'Start your own petition' states", () => {
  const cases: Array<[StartBlockState, string[]]> = [
    ['checking', ['Checking Parliament Status...']],
    [
      'not-in-session',
      [
        'Parliament Not In Session: New petitions cannot be created at this time.',
        'Petitions can only be created when Parliament is in session. Please check back when the next parliamentary term begins.',
        'Parliament Not In Session',
      ],
    ],
    [
      'rate-limited',
      [
        'Rate Limit: You can create 3 petitions per day',
        'You can only create three petitions per day. Please try again tomorrow.',
        'Daily Limit Reached',
      ],
    ],
    ['visitor', ['Connect your ROBLOX account to start creating petitions', 'Connect Account to Start']],
    ['non-citizen', ['You need to be a British Citizen to create petitions.', 'Insufficient Permissions']],
    ['ready', ["When you create a petition, you'll be the first to automatically sign it.", 'Start a petition']],
  ];
  for (const [state, parts] of cases) {
    it(state, () => {
      const html = render(<StartPetitionBlockView state={state} />);
      for (const part of parts) expect(text(html)).toContain(part);
      if (state === 'ready') expect(html).toContain('href="/create-petition"');
      if (state === 'visitor' || state === 'non-citizen' || state === 'rate-limited') expect(html).toMatch(/<button[^>]*disabled/);
      // At the daily limit the page mirrors the server: nothing leads to the form it would refuse.
      if (state === 'rate-limited') expect(html).not.toContain('href="/create-petition"');
    });
  }
  it('banned: says so with the reason, and offers no way to start', () => {
    const html = render(<StartPetitionBlockView state="banned" banReason="Repeated spam" />);
    expect(text(html)).toContain('You are banned from creating petitions.');
    expect(text(html)).toContain('Reason: Repeated spam');
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Banned from creating petitions/);
    expect(html).not.toContain('href="/create-petition"');
  });
});

describe('detail boxes', () => {
  it('closed notice uses the closure texts', () => {
    const closed = { ...petition, status: 'closed' as const, closureReason: 'term_ended' as const };
    const t = text(render(<ClosedNotice petition={closed} />));
    expect(t).toContain(CLOSURE_NOTICE.heading);
    expect(t).toContain(CLOSURE_NOTICE.termEnded);
    expect(render(<ClosedNotice petition={petition} />)).toBe('');
  });

  it('debate box shows the Hansard link only for web addresses', () => {
    const withLink = { ...petition, debateInfo: { ...petition.debateInfo!, hansardLink: 'https://hansard.example/1' } };
    expect(render(<DebateBox petition={withLink} />)).toContain('href="https://hansard.example/1"');
    const bad = { ...petition, debateInfo: { ...petition.debateInfo!, hansardLink: 'javascript:alert(1)' } };
    expect(render(<DebateBox petition={bad} />)).not.toContain('javascript:');
  });

  it("signers list: empty text, and '+ N more signatures'", () => {
    expect(text(render(<SignersList petitionId={1} preview={[]} total={0} />))).toContain(
      'Be the first to sign this petition',
    );
    const signers = Array.from({ length: 10 }, (_, i) => ({
      id: String(100 + i),
      username: `user${i}`,
      displayName: `User ${i}`,
      avatar: '',
      signed_at: '2026-11-20T10:00:00Z',
    }));
    const html = render(<SignersList petitionId={1} preview={signers} total={14} />);
    expect(text(html)).toContain('+ 4 more signatures');
    expect(html).toContain('https://www.roblox.com/users/100/profile');
    expect(text(html)).toContain('Signed 20 November 2026');
  });
});

describe('forms and feedback', () => {
  it('error summary links to fields', () => {
    const html = render(<ErrorSummary errors={[{ fieldId: 'petition-title', message: 'Title is required' }]} />);
    expect(html).toContain('href="#petition-title"');
    expect(text(html)).toContain('There is a problem');
    expect(render(<ErrorSummary errors={[]} />)).toBe('');
  });

  it('field wires label, hint, error and counter to the control', () => {
    const html = render(
      <Field id="t" label="Title" hint="Hint" error="Title is required" counter={{ text: '0/150', over: false }}>
        {(a11y) => <input id="t" {...a11y} />}
      </Field>,
    );
    expect(html).toContain('for="t"');
    expect(html).toContain('aria-describedby="t-hint t-error t-counter"');
    expect(html).toContain('aria-invalid="true"');
    expect(text(html)).toContain('0/150');
  });

  it('notices announce themselves only when asked', () => {
    expect(render(<Notice live="alert">x</Notice>)).toContain('role="alert"');
    expect(render(<Notice>x</Notice>)).not.toContain('role=');
  });

  it('confirm dialog renders a labelled alertdialog', () => {
    const html = render(
      <ConfirmDialog open={false} title="Delete petition" message="Sure?" confirmLabel="Delete" onConfirm={() => {}} onCancel={() => {}} />,
    );
    expect(html).toContain('role="alertdialog"');
    expect(html).toMatch(/aria-labelledby="[^"]+"/);
  });
});

describe('screens', () => {
  it('fatal error screen', () => {
    const t = text(render(<FatalErrorScreen error={new Error('boom')} onReload={() => {}} />));
    expect(t).toContain('Something went wrong');
    expect(t).toContain('The application encountered an error. Please try refreshing the page.');
    expect(t).toContain('Reload Page');
    expect(t).toContain('boom');
  });
  it('component error screen', () => {
    expect(text(render(<ComponentErrorScreen error={null} />))).toContain('Component Error');
  });
  it('not found and maintenance screens', () => {
    const nf = text(render(<NotFoundPage />));
    expect(nf).toContain('Page Not Found');
    expect(nf).toContain('Return to Home');
    const m = text(render(<MaintenancePage />));
    expect(m).toContain('Site Under Maintenance');
    expect(m).toContain('a few minutes');
  });
});
