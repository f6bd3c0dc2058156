/**
 * A user's avatar, decorative (the name is always next to it). Falls back to the initial.
 * Sizes are CSS classes, not inline styles, so a strict Content-Security-Policy (style-src 'self') holds.
 */
import { useState } from 'react';

export type AvatarSize = 32 | 36 | 40;

export function Avatar({ src, name, size = 40 }: { src: string | null | undefined; name: string; size?: AvatarSize }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span className={`avatar avatar--${size} avatar--initial`} aria-hidden="true">
        {(name.trim()[0] ?? '?').toUpperCase()}
      </span>
    );
  }
  return (
    <img
      className={`avatar avatar--${size}`}
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
    />
  );
}
