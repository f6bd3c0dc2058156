/**
 * The demo content itself: demo users, ministers, terms and petitions in every tag and status
 * (responses and each kind of debate outcome, both closure reasons, counts either side of the 10 and
 * 20 thresholds). Times are in days relative to the seed's `now`; demo-seed.ts inserts it.
 */
import type { ClosureReason, DebateStatus } from '../../../src-shared/domain/constants.ts';

/** A completed term, the current one and an upcoming one, in days from now (negative: past). */
export const DEMO_TERMS = {
  previous: { name: 'Term 86', startDays: -420, endDays: -100, status: 'completed' },
  current: { name: 'Term 87', startDays: -90, endDays: 270, status: null },
  next: { name: 'Term 88', startDays: 285, endDays: 650, status: 'upcoming' },
} as const;

export interface DemoUser {
  id: string;
  username: string;
  displayName: string;
}

export const DEMO_USERS: readonly DemoUser[] = [
  ['BrickBuilder', 'Amelia Hart'],
  ['ObbyQueen', 'Olivia Price'],
  ['RedcoatRiley', 'Riley Cooper'],
  ['TeaTimeTom', 'Tom Ashworth'],
  ['MaplePilot', 'Priya Shah'],
  ['ThamesRower', 'Harry Lewis'],
  ['NorthernStar', 'Isla Murray'],
  ['GuardOfHonour', 'George Bennett'],
  ['SconeScholar', 'Sophie Turner'],
  ['BigBenBuilder', 'Oscar Hughes'],
  ['PixelPeer', 'Freya Collins'],
  ['CorgiKeeper', 'Charlie Ward'],
  ['LondonLoop', 'Maya Patel'],
  ['HighlandHiker', 'Jack Fraser'],
  ['WelshDragon', 'Evie Jones'],
  ['BelfastBard', 'Noah Kelly'],
  ['QueueMaster', 'Grace Evans'],
  ['UnionJacker', 'Leo Morgan'],
  ['FogHorn', 'Ruby Clarke'],
  ['DoubleDecker', 'Arthur Reid'],
  ['Crumpet99', 'Lily Walsh'],
  ['ParliamentParrot', 'Henry Wood'],
  ['BeefeaterBen', 'Ben Carter'],
  ['RainyDayRosie', 'Rosie Hall'],
  ['ChalkCliffs', 'Ethan Brooks'],
  ['OxfordComma', 'Ava Mitchell'],
  ['TubeTraveller', 'Samir Khan'],
  ['HedgeMaze', 'Poppy Green'],
  ['CastleCrafter', 'Alfie Young'],
  ['LighthouseLiz', 'Elizabeth King'],
].map(([username, displayName], index) => ({ id: String(3001 + index), username: username!, displayName: displayName! }));

export const MINISTERS = {
  pm: { name: 'Pat Premier', role: 'Prime Minister' },
  leader: { name: 'Lee Leader', role: 'Leader of the House of Commons' },
  chancellor: { name: 'Morgan Minister', role: 'Chancellor of the Exchequer' },
  home: { name: 'Morgan Minister', role: 'Home Secretary' },
  foreign: { name: 'Morgan Minister', role: 'Foreign Secretary' },
  defence: { name: 'Morgan Minister', role: 'Defence Secretary' },
  justice: { name: 'Morgan Minister', role: 'Justice Secretary' },
  cabinetOffice: { name: 'Morgan Minister', role: 'Minister for the Cabinet Office' },
} as const;
export type MinisterKey = keyof typeof MINISTERS;

/** The terms petitions belong to (the seed also adds an upcoming one, with none). */
export type TermKey = 'previous' | 'current';

export interface DemoDebate {
  status: DebateStatus;
  /** Days from now of the debate date (negative: in the past). */
  inDays: number | null;
  reason?: string;
}

export interface DemoPetition {
  title: string;
  description: string;
  tags: string[];
  term: TermKey;
  /** Days since creation (current term) or since the previous term started (previous term). */
  ageDays: number;
  signatures: number;
  response?: { by: MinisterKey; text: string };
  debate?: DemoDebate;
  closed?: ClosureReason;
}

export const DEMO_PETITIONS: readonly DemoPetition[] = [
  {
    title: 'Fund free school meals for every primary pupil',
    description: 'Every primary pupil in the group should get a free hot lunch in the school hall, paid for from the education budget, so no child learns on an empty stomach.',
    tags: ['Budget', 'Public Services'],
    term: 'current', ageDays: 40, signatures: 27,
    response: { by: 'chancellor', text: 'The Government recognises the value of free school meals and will set out costed options in the spring budget statement.' },
    debate: { status: 'scheduled', inDays: 10 },
  },
  {
    title: 'Hold a referendum on electoral reform',
    description: 'Citizens should decide in a referendum whether Parliament keeps first past the post or moves to a proportional voting system for the next general election.',
    tags: ['Democracy', 'Parliament'],
    term: 'current', ageDays: 60, signatures: 30,
    response: { by: 'pm', text: 'The Government will let Parliament debate the question and will respect the outcome of that debate.' },
    debate: { status: 'debated', inDays: -5 },
  },
  {
    title: 'Ban MPs from holding second jobs',
    description: 'Members of Parliament should give their whole working week to their constituents, so paid second jobs and consultancies should be banned outright.',
    tags: ['Parliament', 'Laws'],
    term: 'current', ageDays: 50, signatures: 24,
    response: { by: 'leader', text: 'The code of conduct already requires MPs to declare outside interests; a ban is not planned at this time.' },
    debate: { status: 'not_debated', inDays: null, reason: 'The Petitions Committee found that this topic was debated in Parliament last month.' },
  },
  {
    title: 'Publish the full defence procurement review',
    description: 'The review of how the Ministry of Defence buys equipment was finished months ago. Publish it in full so citizens can see where the money goes.',
    tags: ['Defence', 'Government'],
    term: 'current', ageDays: 45, signatures: 22,
    debate: { status: 'cancelled', inDays: -3 },
  },
  {
    title: 'Create an independent intelligence oversight commission',
    description: 'An independent commission with security clearance should review the work of the intelligence agencies and report to Parliament every year.',
    tags: ['Intelligence', 'Justice'],
    term: 'current', ageDays: 35, signatures: 21,
  },
  {
    title: 'Lower the voting age to 16',
    description: 'Sixteen and seventeen year olds can work and pay tax, so they should be able to vote in general elections and referendums as well.',
    tags: ['Democracy', 'Rights'],
    term: 'current', ageDays: 30, signatures: 20,
    response: { by: 'cabinetOffice', text: 'The Government has no plans to change the voting age but will keep the question under review.' },
  },
  {
    title: 'Restore the royal yacht for state visits',
    description: 'A royal yacht would give the monarch a floating embassy for state visits and trade missions, and would be paid for by the trade it brings in.',
    tags: ['Royal Family', 'Foreign Affairs'],
    term: 'current', ageDays: 28, signatures: 19,
    response: { by: 'foreign', text: 'A new royal yacht is not affordable in this spending period; state visits will continue to use existing transport.' },
  },
  {
    title: 'Cap business rates for small high-street shops',
    description: 'Independent shops on the high street pay the same rates as large chains. Cap business rates for shops with fewer than ten staff.',
    tags: ['Business', 'Budget'],
    term: 'current', ageDays: 25, signatures: 11,
  },
  {
    title: 'Make civil service recruitment blind to names',
    description: 'Application forms for civil service jobs should hide names and schools until the interview stage, so that candidates are judged on merit alone.',
    tags: ['Civil Service', 'Rights'],
    term: 'current', ageDays: 22, signatures: 10,
  },
  {
    title: 'Extend library opening hours at weekends',
    description: 'Public libraries close early on Saturdays and stay shut on Sundays. Keep them open longer at weekends when families and students can visit.',
    tags: ['Public Services'],
    term: 'current', ageDays: 10, signatures: 9,
  },
  {
    title: 'Require plain-English summaries for every new law',
    description: 'Every new Act of Parliament should come with a one-page summary in plain English, so citizens can understand the rules they are asked to follow.',
    tags: ['Laws', 'Justice'],
    term: 'current', ageDays: 18, signatures: 19,
  },
  {
    title: 'Appoint an ambassador for the group community abroad',
    description: 'Members who live abroad have nobody to speak for them. Appoint an ambassador who represents the community in other groups and servers.',
    tags: ['Foreign Affairs'],
    term: 'current', ageDays: 15, signatures: 12,
    response: { by: 'foreign', text: 'The Foreign Office will appoint a community envoy from next month and publish their remit.' },
  },
  {
    title: 'Introduce a tax credit for first-time founders',
    description: 'People starting their first business should be able to claim back part of their start-up costs through a simple tax credit in the first two years.',
    tags: ['Business', 'Budget'],
    term: 'current', ageDays: 3, signatures: 5,
  },
  {
    title: 'Televise cabinet meetings once a month',
    description: 'Citizens deserve to see how decisions are made. Broadcast one cabinet meeting a month, with only security matters held back.',
    tags: ['Government', 'Parliament'],
    term: 'current', ageDays: 1, signatures: 2,
  },
  {
    title: "Set up a citizens' assembly on the constitution",
    description: 'A randomly chosen assembly of citizens should meet for six weekends to recommend how our unwritten constitution could be written down.',
    tags: ['Democracy'],
    term: 'current', ageDays: 0, signatures: 1,
  },
  {
    title: 'Guarantee legal aid for small claims',
    description: 'People with small claims often cannot afford advice and give up. Guarantee legal aid for claims under a set value where the other side is a large company.',
    tags: ['Justice', 'Rights'],
    term: 'current', ageDays: 12, signatures: 14,
  },
  {
    title: "Give the Royal Family's hosting budget a public audit",
    description: 'The cost of royal receptions and banquets should be audited by the National Audit Office and the results published each year.',
    tags: ['Royal Family', 'Budget'],
    term: 'current', ageDays: 6, signatures: 7,
  },
  {
    title: 'Fund a national cyber defence reserve',
    description: 'Train a reserve of volunteer security experts who can be called up to defend public services from cyber attacks, like the Army Reserve.',
    tags: ['Defence', 'Intelligence'],
    term: 'current', ageDays: 20, signatures: 16,
    response: { by: 'defence', text: 'The Ministry of Defence will pilot a cyber reserve unit next year and report on the results.' },
  },
  {
    title: 'Move one parliamentary sitting a year outside Westminster',
    description: 'Parliament should sit for one week a year in a different nation or region, so that MPs see more of the country they govern.',
    tags: ['Parliament'],
    term: 'current', ageDays: 25, signatures: 3,
    closed: 'three_weeks_insufficient_signatures',
  },
  {
    title: 'Introduce a four-day week for civil servants',
    description: 'Trial a four-day working week in two government departments and publish the effect on productivity, sickness and recruitment.',
    tags: ['Civil Service'],
    term: 'current', ageDays: 30, signatures: 6,
    closed: 'three_weeks_insufficient_signatures',
  },
  {
    title: 'Create a public register of lobbyists',
    description: 'Everyone who lobbies ministers or officials for money should be listed on a public register with the meetings they hold and who pays them.',
    tags: ['Government', 'Laws'],
    term: 'current', ageDays: 55, signatures: 25,
    debate: { status: 'scheduled', inDays: 4 },
  },
  {
    title: 'Open a public consultation on the national budget',
    description: 'Before each budget, the Treasury should run an open consultation where citizens can suggest and vote on spending priorities.',
    tags: ['Budget', 'Public Services', 'Government'],
    term: 'current', ageDays: 8, signatures: 4,
  },
  {
    title: 'Protect freedom of assembly in public squares',
    description: 'Peaceful gatherings in public squares should not need permission in advance. Write the right of assembly into law for all public spaces.',
    tags: ['Rights', 'Laws'],
    term: 'current', ageDays: 38, signatures: 29,
    response: { by: 'home', text: 'The right to peaceful protest is protected; the Home Office will review guidance on public squares.' },
    debate: { status: 'debated', inDays: -9 },
  },
  {
    title: "Create a veterans' liaison office in every region",
    description: 'Veterans struggle to find help after leaving the forces. Every region should have a liaison office that can help with housing, jobs and health.',
    tags: ['Defence', 'Public Services'],
    term: 'current', ageDays: 9, signatures: 13,
  },
  {
    title: 'Translate government announcements into more languages',
    description: 'Important announcements should be published in Welsh, Gaelic and the ten most spoken community languages as well as English.',
    tags: ['Government', 'Foreign Affairs'],
    term: 'current', ageDays: 14, signatures: 8,
  },
  {
    title: 'Review the royal succession rules for fairness',
    description: 'Ask the Law Commission to review the rules of royal succession and recommend any changes needed for them to be fair and clear.',
    tags: ['Royal Family', 'Laws'],
    term: 'current', ageDays: 19, signatures: 17,
  },
  {
    title: 'Pay interns in Parliament the living wage',
    description: 'Unpaid internships in Parliament shut out people who cannot work for free. Every intern should be paid at least the living wage.',
    tags: ['Parliament', 'Business'],
    term: 'current', ageDays: 26, signatures: 20,
    debate: { status: 'not_debated', inDays: null, reason: 'Parliament already requires interns to be paid; the committee found nothing further to debate.' },
  },
  {
    title: 'Publish intelligence budgets in summary form',
    description: 'The total budget of each intelligence agency should be published every year in summary form, without details that could harm security.',
    tags: ['Intelligence', 'Budget'],
    term: 'current', ageDays: 5, signatures: 10,
    response: { by: 'chancellor', text: 'Summary figures for the single intelligence account are already published; the Treasury will make them easier to find.' },
  },
  {
    title: 'Give every citizen a free digital ID',
    description: 'An optional free digital identity would make it easier to prove who you are online without handing copies of documents to every website.',
    tags: ['Government', 'Rights'],
    term: 'current', ageDays: 2, signatures: 1,
  },
  {
    title: 'Stream all select committee hearings live',
    description: 'Every select committee hearing in public session should be streamed live and kept online, with captions, for anyone to watch later.',
    tags: ['Parliament', 'Democracy'],
    term: 'current', ageDays: 11, signatures: 18,
  },
  {
    title: 'Phase out paper forms in the civil service',
    description: 'Every form a citizen fills in for a government department should be available online, with paper kept only for people who ask for it.',
    tags: ['Civil Service', 'Public Services'],
    term: 'current', ageDays: 7, signatures: 10,
  },
  {
    title: 'Set up a whistleblower hotline for intelligence staff',
    description: 'Staff in the intelligence agencies need a safe, independent way to report wrongdoing without breaking the law on official secrets.',
    tags: ['Intelligence', 'Justice'],
    term: 'current', ageDays: 33, signatures: 23,
    response: { by: 'home', text: 'An independent staff counsellor already exists; the Home Office will publicise how to reach them.' },
  },
  // The previous, completed term: everything is closed now.
  {
    title: 'Abolish the tax on tea',
    description: 'Tea is a national institution and a basic good. The duty charged on it should be abolished at the next budget.',
    tags: ['Budget'],
    term: 'previous', ageDays: 20, signatures: 26,
    response: { by: 'chancellor', text: 'There is no specific tax on tea; the Treasury keeps VAT on food under review.' },
    debate: { status: 'debated', inDays: -160 },
    closed: 'term_ended',
  },
  {
    title: 'Build a new parliamentary library',
    description: 'The parliamentary library has run out of space. Build a new library that citizens can also visit to read the records of Parliament.',
    tags: ['Parliament', 'Public Services'],
    term: 'previous', ageDays: 40, signatures: 21,
    debate: { status: 'cancelled', inDays: -130 },
    closed: 'term_ended',
  },
  {
    title: 'Set a minimum notice period for new regulations',
    description: 'Businesses need time to prepare for new rules. Every new regulation should be published at least three months before it takes effect.',
    tags: ['Laws', 'Business'],
    term: 'previous', ageDays: 60, signatures: 15,
    response: { by: 'cabinetOffice', text: 'Common commencement dates already give businesses notice; the Government will publish a calendar of changes.' },
    closed: 'term_ended',
  },
  {
    title: 'Recognise Civil Service Day as a holiday',
    description: 'Give civil servants and the public a day each year to recognise the work of the civil service, with open days at government buildings.',
    tags: ['Civil Service'],
    term: 'previous', ageDays: 80, signatures: 4,
    closed: 'three_weeks_insufficient_signatures',
  },
  {
    title: 'Hold an annual state of the nation address',
    description: 'The Prime Minister should give a state of the nation address to Parliament every year, followed by questions from every party.',
    tags: ['Government'],
    term: 'previous', ageDays: 100, signatures: 11,
    closed: 'term_ended',
  },
  {
    title: 'Make embassy reports public after ten years',
    description: 'Diplomatic reports from our embassies should be released to the public archive after ten years instead of thirty.',
    tags: ['Foreign Affairs', 'Intelligence'],
    term: 'previous', ageDays: 110, signatures: 9,
    closed: 'term_ended',
  },
  {
    title: 'Fund community justice centres',
    description: 'Community justice centres that deal with low-level offending close to home cut reoffending. Fund one in every county.',
    tags: ['Justice'],
    term: 'previous', ageDays: 120, signatures: 20,
    debate: { status: 'not_debated', inDays: null, reason: 'A Government bill on this subject is already before Parliament.' },
    closed: 'term_ended',
  },
  {
    title: 'Create a royal charter for online communities',
    description: 'Grant a royal charter that recognises well-run online communities and sets out the standards they promise to keep.',
    tags: ['Royal Family', 'Democracy'],
    term: 'previous', ageDays: 140, signatures: 3,
    closed: 'three_weeks_insufficient_signatures',
  },
  {
    title: 'Require impact assessments for defence cuts',
    description: 'Before any cut to the defence budget, publish an assessment of its effect on readiness, jobs and our commitments to allies.',
    tags: ['Defence'],
    term: 'previous', ageDays: 150, signatures: 12,
    response: { by: 'defence', text: 'Defence spending decisions are assessed internally; summaries will be shared with the Defence Committee.' },
    closed: 'term_ended',
  },
];
