/**
 * The unusual-signing rules (docs/integrity.md#unusual-signing): which figures of a petition's
 * recent signing trip which rule. The server's monitor raises alerts with them; the staff screens
 * label and explain them with the same texts.
 */
import {
  DEBATE_THRESHOLD,
  RESPONSE_THRESHOLD,
  SURGE_FACTOR,
  SURGE_MIN_SIGNATURES,
  YOUNG_ACCOUNT_DAYS,
  YOUNG_SHARE_ALERT,
  YOUNG_SHARE_MIN_SIGNATURES,
} from '../domain/constants.ts';

export const UNUSUAL_SIGNING_RULES = ['surge', 'young_share', 'burst', 'young_threshold'] as const;
export type UnusualSigningRule = (typeof UNUSUAL_SIGNING_RULES)[number];

export const UNUSUAL_SIGNING_RULE_LABELS: Record<UnusualSigningRule, string> = {
  surge: 'Signing far faster than before',
  young_share: `Mostly accounts younger than ${YOUNG_ACCOUNT_DAYS} days`,
  burst: 'A burst within one minute',
  young_threshold: `Reached ${RESPONSE_THRESHOLD} or ${DEBATE_THRESHOLD} mostly on young accounts`,
};

/** The thresholds whose crossing is watched: the ones that create staff work. */
export const WATCHED_THRESHOLDS = [RESPONSE_THRESHOLD, DEBATE_THRESHOLD] as const;

export interface SigningFigures {
  /** Signatures now (live). */
  signatures: number;
  lastHour: number;
  earlierHourlyRate: number;
  youngLastHour: number;
  peakMinute: number;
  /** Per threshold reached: young accounts among the signatures that reached it. */
  firstSigners: readonly { threshold: number; young: number }[];
}

export interface UnusualSigningSettings {
  burstSignatures: number;
}

/** Signatures per hour before the last hour, over the petition's life (at least one hour long). */
export function earlierHourlyRate(input: { signatures: number; lastHour: number; createdAt: string; now: Date }): number {
  const hours = Math.max(1, (input.now.getTime() - 60 * 60 * 1000 - Date.parse(input.createdAt)) / (60 * 60 * 1000));
  return Math.max(0, input.signatures - input.lastHour) / hours;
}

/** More than half of the signatures that reached the threshold came from young accounts. */
export function mostlyYoung(entry: { threshold: number; young: number }): boolean {
  return entry.young * 2 > entry.threshold;
}

/** The rules these figures trip. A threshold counts only if the petition reached it within the last hour. */
export function trippedRules(figures: SigningFigures, settings: UnusualSigningSettings): UnusualSigningRule[] {
  const rules: UnusualSigningRule[] = [];
  if (figures.lastHour >= SURGE_MIN_SIGNATURES && figures.lastHour >= SURGE_FACTOR * figures.earlierHourlyRate) rules.push('surge');
  if (figures.lastHour >= YOUNG_SHARE_MIN_SIGNATURES && figures.youngLastHour >= YOUNG_SHARE_ALERT * figures.lastHour) rules.push('young_share');
  if (figures.peakMinute >= settings.burstSignatures) rules.push('burst');
  const before = figures.signatures - figures.lastHour;
  if (figures.firstSigners.some((entry) => before < entry.threshold && mostlyYoung(entry))) rules.push('young_threshold');
  return rules;
}

/** One line per rule, with the figures that tripped it (the staff chat message, the screens' explanations). */
export function ruleExplanation(rule: UnusualSigningRule, figures: SigningFigures): string {
  switch (rule) {
    case 'surge':
      return `${figures.lastHour} signatures in the last hour, against ${figures.earlierHourlyRate.toFixed(1)} an hour before`;
    case 'young_share':
      return `${figures.youngLastHour} of ${figures.lastHour} signatures in the last hour from accounts younger than ${YOUNG_ACCOUNT_DAYS} days`;
    case 'burst':
      return `${figures.peakMinute} signatures within one minute`;
    case 'young_threshold':
      return figures.firstSigners
        .filter(mostlyYoung)
        .map((entry) => `${entry.young} of the first ${entry.threshold} signatures from accounts younger than ${YOUNG_ACCOUNT_DAYS} days`)
        .join('; ');
  }
}
