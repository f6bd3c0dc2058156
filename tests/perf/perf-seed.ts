/**
 * Realistic data for the web performance figures: a completed term and a current one, and about
 * thirty petitions across every status, tag and signature range, so the home, list and detail
 * pages render what visitors actually see. One petition (the "featured" one, used for the detail
 * page) has many signatures, a government response and debate information.
 *
 * Dates stay within the last three weeks for open petitions so the server's expiry check never
 * closes them during the run.
 */
import type { AppContext } from '../../src-server/context.ts';
import type { PetitionStatus, Tag } from '../../src-shared/domain/constants.ts';
import type { DebateInfo } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

interface PetitionSpec {
  title: string;
  description: string;
  tags: Tag[];
  signatures: number;
  ageDays: number;
  status?: PetitionStatus;
  governmentResponse?: string;
  debateInfo?: DebateInfo;
  previousTerm?: boolean;
}

const RESPONSE =
  'The Government thanks the petitioners. We recognise the strength of feeling on this issue and have asked the ' +
  'relevant department to review current arrangements. A consultation will open next month and we will publish ' +
  'its findings, together with a plan of action, before the end of the term.';

const SPECS: PetitionSpec[] = [
  { title: 'Build a second railway line to the northern islands', description: 'The single line to the northern islands is full every morning. A second line would halve journey times and bring new visitors to island businesses.', tags: ['Public Services', 'Budget'], signatures: 9, ageDays: 2 },
  { title: 'Publish the minutes of every Cabinet meeting', description: 'Citizens deserve to know how decisions are made. Minutes should be published within a week of each Cabinet meeting, with only security matters redacted.', tags: ['Government', 'Democracy'], signatures: 14, ageDays: 6 },
  { title: 'Lower the voting age for group elections to 13', description: 'Every member who is old enough to join the group should be able to vote in its elections and have a say in who represents them.', tags: ['Democracy', 'Rights'], signatures: 31, ageDays: 12 },
  { title: 'Fund a new public library in the capital', description: 'The capital has no public library. A library would give citizens a quiet place to study, read and meet, and could host weekly events.', tags: ['Public Services'], signatures: 4, ageDays: 1 },
  { title: 'Create an independent ombudsman for bans', description: 'Members who are banned have nowhere to appeal. An independent ombudsman would review bans fairly and publish anonymised decisions.', tags: ['Justice', 'Rights'], signatures: 18, ageDays: 9, governmentResponse: RESPONSE },
  { title: 'Hold a referendum on the new flag design', description: 'The flag belongs to every citizen. Before any new design is adopted, citizens should choose between the shortlisted designs in a referendum.', tags: ['Democracy', 'Royal Family'], signatures: 7, ageDays: 3 },
  { title: 'Increase the defence budget for border patrols', description: 'Border patrols are stretched thin and response times have doubled. More funding would allow more patrols at peak hours.', tags: ['Defence', 'Budget'], signatures: 22, ageDays: 15 },
  { title: 'Open embassies in the three largest allied groups', description: 'Formal embassies would make diplomacy faster and give our citizens a point of contact when visiting allied groups.', tags: ['Foreign Affairs'], signatures: 11, ageDays: 8 },
  { title: 'Ban spawn camping in the city centre', description: 'Spawn camping drives new members away on their first day. A clear law with proportionate penalties would keep the centre welcoming.', tags: ['Laws', 'Justice'], signatures: 45, ageDays: 14 },
  { title: 'Introduce a weekly Prime Minister question time', description: 'A weekly question time where citizens can put questions to the Prime Minister would make the Government more accountable.', tags: ['Parliament', 'Government'], signatures: 12, ageDays: 5 },
  { title: 'Recruit more civil servants for the passport office', description: 'Passport applications take weeks to process. More staff would clear the backlog and keep waiting times under three days.', tags: ['Civil Service', 'Public Services'], signatures: 3, ageDays: 4 },
  { title: 'Give the intelligence service a public annual report', description: 'An annual public report, with sensitive details removed, would build trust in the intelligence service and explain its work.', tags: ['Intelligence', 'Government'], signatures: 8, ageDays: 7 },
  { title: 'Reduce the tax on small market stalls', description: 'Small stall owners pay the same tax as large shops. A lower rate for small stalls would help new traders start a business.', tags: ['Business', 'Budget'], signatures: 16, ageDays: 10 },
  { title: 'Protect freedom of speech in group chat rooms', description: 'Moderation rules should be published and applied consistently so that citizens know what they can say and why messages are removed.', tags: ['Rights', 'Laws'], signatures: 27, ageDays: 13, debateInfo: { status: 'scheduled', date: null, location: 'Westminster Hall', hansardLink: null, notDebatedReason: null } },
  { title: 'Restore the royal garden party every summer', description: 'The summer garden party was a highlight of the year and brought citizens together. It should return as an annual event.', tags: ['Royal Family'], signatures: 6, ageDays: 2 },
  { title: 'Require ministers to declare their other group roles', description: 'Ministers who hold roles in other groups may face conflicts of interest. A public register of roles would make this transparent.', tags: ['Government', 'Parliament'], signatures: 21, ageDays: 11, debateInfo: { status: 'not_debated', date: null, location: 'Westminster Hall', hansardLink: null, notDebatedReason: 'The Petitions Committee decided the issue was already covered by a recent debate on standards.' } },
  { title: 'Build cycle lanes on the main avenue', description: 'The main avenue is dangerous for cyclists. Separate cycle lanes would make it safer and reduce traffic at busy times.', tags: ['Public Services'], signatures: 2, ageDays: 1 },
  { title: 'Set up a court of appeal for trading disputes', description: 'Trading disputes are decided by a single judge with no appeal. A court of appeal would give traders confidence in the system.', tags: ['Justice', 'Business'], signatures: 13, ageDays: 6 },
  { title: 'Train every new member in basic first aid', description: 'A short first aid course during onboarding would teach new members how to help in an emergency roleplay scenario.', tags: ['Public Services', 'Civil Service'], signatures: 5, ageDays: 3 },
  { title: 'Hold parliamentary elections every four months', description: 'Elections every four months would keep Parliament in touch with a group whose membership changes quickly.', tags: ['Democracy', 'Parliament'], signatures: 10, ageDays: 5 },
  { title: 'Publish the full group budget online', description: 'Citizens should see how group funds are spent. A public budget page, updated monthly, would make spending transparent.', tags: ['Budget', 'Government'], signatures: 24, ageDays: 16, governmentResponse: RESPONSE },
  { title: 'Make the national anthem shorter', description: 'The anthem takes four minutes and most events skip it. A shorter official version would mean it is played more often.', tags: ['Royal Family', 'Laws'], signatures: 1, ageDays: 0 },
  { title: 'Create a youth parliament for new members', description: 'A youth parliament would let new members learn how debates and votes work before standing for the main Parliament.', tags: ['Parliament', 'Democracy'], signatures: 15, ageDays: 8 },
  { title: 'Ban the sale of admin tools in the marketplace', description: 'Admin tools sold in the marketplace are used to disrupt events. Selling them should be banned and existing listings removed.', tags: ['Laws', 'Business'], signatures: 19, ageDays: 12 },
  { title: 'Sign a trade agreement with the eastern alliance', description: 'A trade agreement would lower prices for imported goods and open new markets to our traders in the eastern alliance.', tags: ['Foreign Affairs', 'Business'], signatures: 20, ageDays: 18 },
  // The previous term, closed by the term ending or by the three-week rule.
  { title: 'Rename the capital after its founder', description: 'The founder built the capital from nothing. Renaming it in their honour would recognise that work for future members.', tags: ['Royal Family'], signatures: 9, ageDays: 120, status: 'closed', previousTerm: true },
  { title: 'Abolish the entry fee for the museum', description: 'The museum entry fee keeps new members away. Free entry would let everyone learn about the history of the group.', tags: ['Public Services', 'Budget'], signatures: 3, ageDays: 200, status: 'closed', previousTerm: true },
  { title: 'Hold a public inquiry into the server outage', description: 'The outage lasted two days and nobody explained why. A public inquiry would find the cause and prevent it happening again.', tags: ['Government', 'Intelligence'], signatures: 38, ageDays: 150, previousTerm: true, status: 'debated_in_parliament', governmentResponse: RESPONSE, debateInfo: { status: 'debated', date: null, location: 'Westminster Hall', hansardLink: 'https://hansard.parliament.uk/', notDebatedReason: null } },
  { title: 'Let citizens propose laws directly to Parliament', description: 'Citizens should be able to propose a law that Parliament must vote on once it reaches enough support from members.', tags: ['Democracy', 'Laws'], signatures: 2, ageDays: 90, status: 'closed', previousTerm: true },
];

export const FEATURED_TITLE = 'Introduce a four-day school week in the academy';

export interface SeededData {
  featuredId: number;
  petitions: number;
  signatures: number;
}

export async function seedRealisticData(context: AppContext): Promise<SeededData> {
  const now = context.now().getTime();
  const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const previous = await seedTerm(context, { name: 'Term 86', startDate: isoDay(now - 400 * DAY_MS), endDate: isoDay(now - 40 * DAY_MS), status: 'completed' });
  await seedTerm(context, { name: 'Term 87', startDate: isoDay(now - 35 * DAY_MS), endDate: isoDay(now + 330 * DAY_MS) });

  let signatures = 0;
  for (const spec of SPECS) {
    await seedPetition(context, {
      title: spec.title,
      description: spec.description,
      tags: spec.tags,
      signatures: spec.signatures,
      // What the server itself would have stored after the signatures, response and debate.
      status: spec.status ?? automaticStatus({ status: 'open', signatures: spec.signatures, governmentResponse: spec.governmentResponse ?? null, debateInfo: spec.debateInfo ?? null }),
      termId: spec.previousTerm ? previous.id : undefined,
      createdAt: new Date(now - spec.ageDays * DAY_MS - 3 * HOUR_MS),
      governmentResponse: spec.governmentResponse ?? null,
      debateInfo: spec.debateInfo ?? null,
    });
    signatures += spec.signatures;
  }

  const featured = await seedPetition(context, {
    title: FEATURED_TITLE,
    description:
      'Students at the academy attend classes five days a week and have little time left for clubs, events and ' +
      'roleplay. A four-day week with longer lessons would keep the same teaching hours, give teachers a day to ' +
      'plan and mark work, and let students take part in group life. Other groups that tried it saw attendance rise.',
    tags: ['Public Services', 'Civil Service', 'Rights'],
    signatures: 240,
    status: 'debated_in_parliament',
    createdAt: new Date(now - 17 * DAY_MS),
    governmentResponse: RESPONSE,
    debateInfo: {
      status: 'debated',
      date: isoDay(now - 2 * DAY_MS),
      location: 'Westminster Hall',
      hansardLink: 'https://hansard.parliament.uk/',
      notDebatedReason: null,
    },
  });
  signatures += featured.signatures;
  return { featuredId: featured.id, petitions: SPECS.length + 1, signatures };
}
