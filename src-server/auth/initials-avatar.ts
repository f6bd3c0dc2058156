/** A small SVG with the user's initials, for users without a headshot (or when fetching it fails). */
import { createHash } from 'node:crypto';

/** Dark enough for white text at AA contrast. */
const BACKGROUNDS = ['#1d70b8', '#00703c', '#4c2c92', '#d4351c', '#6f4e00', '#28a197', '#912b88', '#505a5f'];

export function initialsOf(name: string): string {
  const words = name.trim().split(/[\s_.-]+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  const initials = letters.map((word) => [...(word ?? '')][0] ?? '').join('').toUpperCase();
  return initials || '?';
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function initialsSvg(seed: string, name: string): string {
  const index = createHash('sha256').update(seed).digest().readUInt8(0) % BACKGROUNDS.length;
  const initials = escapeXml(initialsOf(name));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="150" viewBox="0 0 150 150" role="img" aria-label="${initials}"><rect width="150" height="150" fill="${BACKGROUNDS[index]}"/><text x="75" y="75" dy="0.35em" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="60" font-weight="700" fill="#ffffff">${initials}</text></svg>`;
}
