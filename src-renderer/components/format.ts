/** Small display helpers shared by cards and pages. */

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}...` : text;
}

const numberFormat = new Intl.NumberFormat('en-GB');

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

export function signaturesText(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'signature' : 'signatures'}`;
}

/** The profile page of a Roblox user, for the signers list. */
export function robloxProfileUrl(userId: string): string {
  return `https://www.roblox.com/users/${encodeURIComponent(userId)}/profile`;
}
