/**
 * Progress toward the two thresholds (10: government response, 20: debate). Each bar is a
 * labelled progressbar, and the sentence under it says the same in words.
 */
import { DEBATE_THRESHOLD, RESPONSE_THRESHOLD } from '../../src-shared/domain/constants.ts';

export interface ProgressStep {
  key: 'response' | 'debate';
  target: number;
  label: string;
  reached: boolean;
  percent: number;
  remaining: number;
}

export function progressSteps(signatures: number): ProgressStep[] {
  const step = (key: ProgressStep['key'], target: number, label: string): ProgressStep => ({
    key,
    target,
    label,
    reached: signatures >= target,
    percent: Math.min(100, Math.round((Math.max(0, signatures) / target) * 100)),
    remaining: Math.max(0, target - signatures),
  });
  return [
    step('response', RESPONSE_THRESHOLD, 'Government response'),
    step('debate', DEBATE_THRESHOLD, 'Debate in Parliament'),
  ];
}

export function progressSentence(s: ProgressStep): string {
  if (s.reached) return `${s.label}: threshold of ${s.target} signatures reached`;
  return `${s.label}: ${s.remaining} more ${s.remaining === 1 ? 'signature' : 'signatures'} needed (${s.target} in total)`;
}

export function SignatureProgress({ signatures }: { signatures: number }) {
  return (
    <div className="progress">
      <h2 className="heading-s">Progress</h2>
      {progressSteps(signatures).map((s) => (
        <div className="progress__step" key={s.key}>
          <div
            className="progress__track"
            role="progressbar"
            aria-label={`${s.label} threshold`}
            aria-valuemin={0}
            aria-valuemax={s.target}
            aria-valuenow={Math.min(signatures, s.target)}
            aria-valuetext={`${Math.min(signatures, s.target)} of ${s.target} signatures`}
          >
            {/* An SVG bar: its width is an attribute, not an inline style, so a strict CSP holds. */}
            <svg className="progress__svg" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
              <rect className={`progress__fill${s.reached ? ' progress__fill--done' : ''}`} width={s.percent} height="10" />
            </svg>
          </div>
          <p className="progress__text">{progressSentence(s)}</p>
        </div>
      ))}
    </div>
  );
}
