/**
 * Privacy policy and terms and conditions. Loaded lazily: few visitors read them, so they stay
 * out of the initial bundle.
 */
import { Link } from '../components/Link.tsx';
import {
  DAILY_PETITION_LIMIT,
  DEBATE_THRESHOLD,
  MINIMUM_AGE,
  RESPONSE_THRESHOLD,
} from '../../src-shared/domain/constants.ts';
import { PUSH_TTL_SECONDS } from '../../src-shared/domain/push-constants.ts';
import { ACCOUNT_DELETION_CONFIRMATION, DELETED_MEMBER_NAME } from '../../src-shared/domain/privacy-constants.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useRetention } from '../hooks/useRetention.ts';

/** How long a push message may wait, in days, as the privacy page states it. */
const PUSH_TTL_DAYS = PUSH_TTL_SECONDS / 86_400;

const LAST_UPDATED = '24 November 2026';

export function PrivacyPolicyPage() {
  useDocumentTitle('Privacy Policy');
  const retention = useRetention();
  return (
    <div className="prose">
      <h1 className="heading-xl">Privacy Policy</h1>
      <p className="body-l">
        This policy explains what information the petitions site keeps about you, why, and what you can do about it.
      </p>
      <p className="hint">Last updated {LAST_UPDATED}</p>

      <h2 className="heading-m">Who we are</h2>
      <p>
        This site is run by members of a ROBLOX group for the group&apos;s role-play government and parliament. It is
        not affiliated with, endorsed by or connected to the UK Government, UK Parliament or ROBLOX Corporation.
      </p>

      <h2 className="heading-m">What we keep</h2>
      <p>When you sign in with ROBLOX we receive and keep:</p>
      <ul className="list list--bullet">
        <li>your ROBLOX user id, username and display name;</li>
        <li>the address of your ROBLOX avatar picture;</li>
        <li>your ranks in the group&apos;s citizen and government groups, which decide what you may do on the site.</li>
      </ul>
      <p>When you use the site we also keep:</p>
      <ul className="list list--bullet">
        <li>the petitions you create, with your name as their creator;</li>
        <li>your signatures: which petitions you signed and when;</li>
        <li>for government members and the administrator, the responses, debate records and other staff actions you take;</li>
        <li>a session cookie that keeps you signed in. It is needed for the site to work and is not used for tracking.</li>
      </ul>
      <p>For your notifications (My petitions and the notification centre) we keep:</p>
      <ul className="list list--bullet">
        <li>
          what happened to each petition (a government response, a debate, a closure, a milestone), once per petition:
          your notifications are worked out from your signatures and the petitions you created when you look at them,
          so nothing is copied for each signer;
        </li>
        <li>which notifications you have read, the petitions you stopped updates for, and which kinds of update you switched off;</li>
        <li>whether you switched web push on.</li>
      </ul>
      <p>If you switch on web push for a browser, we also keep, for that browser:</p>
      <ul className="list list--bullet">
        <li>
          the address its push service (Google&apos;s, Mozilla&apos;s, Apple&apos;s or Microsoft&apos;s, depending on the
          browser) gave it for this site, and the two keys it gave us to encrypt messages to it;
        </li>
        <li>when you switched it on, which sign-in did it, and when a message last reached it.</li>
      </ul>
      <p>
        A push message says only which petition it is about (its number and title) and what happened to it, nothing
        about you or anyone else. It is encrypted so that only your browser can read it; the push service passes it on
        without being able to read it.
      </p>
      <p>
        We never receive your ROBLOX password, email address or payment details, and we do not use advertising or
        analytics cookies.
      </p>

      <h2 className="heading-m">What is public</h2>
      <p>
        Petitions, their creators&apos; names and the list of people who signed them (name, avatar and date of
        signing) are shown publicly on the site, because a petition is a public statement of support.
      </p>

      <h2 className="heading-m">Why we keep it</h2>
      <p>
        We use this information only to run the petitions service: to check that signers are citizens of the group,
        to count signatures, to stop duplicate or abusive petitions (for example the limit of {DAILY_PETITION_LIMIT}{' '}
        petitions a day), and to show who responded to or debated a petition.
      </p>

      <h2 className="heading-m">How long we keep it</h2>
      <p>
        Petitions are kept for as long as they are shown on the site. You can remove your signature from an open
        petition at any time with the Remove signature button.
      </p>
      <p>
        Signers are anonymised {retention.signerMonths} months after a petition closes: the petition keeps its
        number of signatures and its chart of signatures over time, and its first signers are shown by their initials
        only, but your ROBLOX user id and your names are removed from it, with your reports of it and the notification
        settings you had for it.
      </p>

      <h2 className="heading-m">Deleting your data</h2>
      <p>
        You can delete your data at any time on your <Link to="/account">account page</Link> (Account, next to Logout),
        by typing {ACCOUNT_DELETION_CONFIRMATION} to confirm; or ask the System Administrator through the group to do it for
        you. Deleting your data signs you out on every device, removes your signatures from petitions that are still
        open, keeps your signatures on closed petitions in their counts without your name, keeps the petitions you created
        with their creator shown as &quot;{DELETED_MEMBER_NAME}&quot;, and deletes your notifications, their settings and
        your web push devices. A ban on your account stays, and the records of what staff did on the site keep the staff
        member&apos;s id. It cannot be undone.
      </p>
      <p>
        Each notification, and the record of whether you read it, is deleted {retention.notificationMonths} months
        after it happened. Your notification settings and the petitions you stopped updates for are kept until you change
        them. If you remove your signature, that petition&apos;s notifications no longer reach you.
      </p>
      <p>
        A browser&apos;s web push record is deleted when you switch web push off for it, when you sign out in it, and when
        its push service tells us it no longer exists. A message waiting to be sent is deleted once it is sent, or after{' '}
        {PUSH_TTL_DAYS} days.
      </p>

      <h2 className="heading-m">Age</h2>
      <p>You must be {MINIMUM_AGE} or older to use this site.</p>

      <h2 className="heading-m">Changes</h2>
      <p>
        If this policy changes we will update this page and the date above. See also the{' '}
        <Link to="/terms-and-conditions">terms and conditions</Link>.
      </p>
    </div>
  );
}

export function TermsAndConditionsPage() {
  useDocumentTitle('Terms and Conditions');
  return (
    <div className="prose">
      <h1 className="heading-xl">Terms and Conditions</h1>
      <p className="body-l">By using the petitions site you agree to these terms.</p>
      <p className="hint">Last updated {LAST_UPDATED}</p>

      <h2 className="heading-m">About this site</h2>
      <p>
        This is a community site for a ROBLOX group, modelled on the UK Government and Parliament petitions service.
        It is not affiliated with, endorsed by or connected to the UK Government, UK Parliament or ROBLOX
        Corporation. Petitions here have no effect outside the group.
      </p>

      <h2 className="heading-m">Who can use it</h2>
      <ul className="list list--bullet">
        <li>You must be {MINIMUM_AGE} or older.</li>
        <li>Anyone may read petitions. Signing and creating petitions needs British Citizen status in the group.</li>
        <li>You must follow the ROBLOX Terms of Use and Community Standards.</li>
      </ul>

      <h2 className="heading-m">Petitions</h2>
      <ul className="list list--bullet">
        <li>Petitions can only be created while Parliament is in session.</li>
        <li>You can create up to {DAILY_PETITION_LIMIT} petitions a day, and you automatically sign your own petitions.</li>
        <li>
          At {RESPONSE_THRESHOLD} signatures a petition receives a government response; at {DEBATE_THRESHOLD}{' '}
          signatures it is considered for a debate in Parliament.
        </li>
        <li>
          Petitions close automatically after 3 weeks if they have fewer than {RESPONSE_THRESHOLD} signatures, and when
          the parliamentary term ends.
        </li>
      </ul>

      <h2 className="heading-m">What is not allowed</h2>
      <ul className="list list--bullet">
        <li>offensive, hateful, abusive or sexual content;</li>
        <li>personal information about anyone, or content that could identify a real person outside ROBLOX;</li>
        <li>spam, duplicate petitions, or using more than one account to sign;</li>
        <li>advertising, or links to harmful sites.</li>
      </ul>
      <p>
        The System Administrator may remove petitions, change their status, and ban accounts from creating petitions
        when these terms are broken.
      </p>

      <h2 className="heading-m">Availability</h2>
      <p>
        The site is run by volunteers and is provided as it is. It may be unavailable during maintenance, and petitions
        may be removed at the end of a term.
      </p>

      <h2 className="heading-m">Your information</h2>
      <p>
        How we use your information is explained in the <Link to="/privacypolicy">privacy policy</Link>.
      </p>
    </div>
  );
}
