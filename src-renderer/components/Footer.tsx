/** Site footer: Navigation, Legal and How it works groups, and the not-affiliated / 13+ notices. */
import { Link } from './Link.tsx';
import { DEBATE_THRESHOLD, MINIMUM_AGE, RESPONSE_THRESHOLD } from '../../src-shared/domain/core-constants.ts';

export const NOT_AFFILIATED_TEXT =
  'This is a community site for a Roblox group. It is not affiliated with, endorsed by or connected to the UK Government or UK Parliament.';
export const AGE_TEXT = `You must be ${MINIMUM_AGE} or older to use this site.`;

export function Footer() {
  return (
    <footer className="footer">
      <div className="page-width">
        <div className="footer__groups">
          <nav className="footer__group" aria-labelledby="footer-navigation">
            <h2 className="footer__heading" id="footer-navigation">
              Navigation
            </h2>
            <ul>
              <li>
                <Link to="/">Home</Link>
              </li>
              <li>
                <Link to="/create-petition">Create Petition</Link>
              </li>
              <li>
                <Link to="/petitions">View All Petitions</Link>
              </li>
            </ul>
          </nav>
          <nav className="footer__group" aria-labelledby="footer-legal">
            <h2 className="footer__heading" id="footer-legal">
              Legal
            </h2>
            <ul>
              <li>
                <Link to="/privacypolicy">Privacy Policy</Link>
              </li>
              <li>
                <Link to="/terms-and-conditions">Terms and Conditions</Link>
              </li>
            </ul>
          </nav>
          <section className="footer__group" aria-labelledby="footer-how">
            <h2 className="footer__heading" id="footer-how">
              How it works
            </h2>
            <ul>
              <li>
                <strong>{RESPONSE_THRESHOLD} signatures:</strong> the Government responds to the petition.
              </li>
              <li>
                <strong>{DEBATE_THRESHOLD} signatures:</strong> the petition is considered for a debate in Parliament.
              </li>
            </ul>
          </section>
        </div>
        <div className="footer__notices">
          <p className="footer__affiliation">
            <strong>Not affiliated with the UK Government.</strong> {NOT_AFFILIATED_TEXT}
          </p>
          <p>{AGE_TEXT}</p>
        </div>
      </div>
    </footer>
  );
}
