/**
 * Signers of a petition: the first 10 come with the petition; '+ N more signatures' loads the
 * next page (up to 100) from the signers endpoint, and shows again while more remain.
 * With none: 'Be the first to sign this petition'.
 */
import { useEffect, useRef, useState } from 'react';
import type { Signer } from '../../src-shared/domain/schemas.ts';
import { PAGE_SIZE_MAX, SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
import { formatLongDate } from '../../src-shared/rules/dates.ts';
import { isAnonymousUserId } from '../../src-shared/domain/privacy-constants.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiListPetitionSigners } from '../../src-shared/api/visitor-calls.ts';
import { Avatar } from './Avatar.tsx';
import { formatCount, robloxProfileUrl, signaturesText } from './format.ts';

export const NO_SIGNERS_TEXT = 'Be the first to sign this petition';

export function moreSignaturesLabel(total: number, shown: number): string | null {
  const more = total - shown;
  if (more <= 0) return null;
  return `+ ${formatCount(more)} more ${more === 1 ? 'signature' : 'signatures'}`;
}

export function SignersList({
  petitionId,
  preview,
  total,
}: {
  petitionId: number;
  /** The first signers from the petition answer. */
  preview: readonly Signer[];
  total: number;
}) {
  const [extra, setExtra] = useState<Signer[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const firstNewIndex = useRef<number | null>(null);

  // A reload of the petition (after signing) brings a new preview: start again from it.
  useEffect(() => setExtra([]), [preview]);

  useEffect(() => {
    // Move focus to the first newly shown signer so keyboard users continue from there.
    if (firstNewIndex.current === null) return;
    const item = listRef.current?.children[firstNewIndex.current]?.querySelector('a');
    firstNewIndex.current = null;
    item?.focus();
  }, [extra]);

  const signers = [...preview, ...extra];
  const more = moreSignaturesLabel(total, signers.length);

  const loadMore = async () => {
    setLoading(true);
    setError(null);
    try {
      // One page of up to 100 per click: a petition with thousands of signers stays light.
      const offset = Math.max(signers.length, SIGNERS_PREVIEW_COUNT);
      const page = await apiListPetitionSigners(apiCaller, petitionId, { offset, limit: PAGE_SIZE_MAX });
      const known = new Set(signers.map((s) => s.id));
      firstNewIndex.current = signers.length;
      setExtra((prev) => [...prev, ...page.items.filter((s) => !known.has(s.id))]);
    } catch {
      setError('The remaining signatures could not be loaded. Please try again.');
    } finally {
      setLoading(false);
    }
  };

  return (
    <section className="signers" aria-labelledby="signers-heading">
      <h2 className="heading-m" id="signers-heading">
        Signatures <span className="signers__count">({signaturesText(total)})</span>
      </h2>
      {signers.length === 0 ? (
        <p>{NO_SIGNERS_TEXT}</p>
      ) : (
        <ul className="signers__list" ref={listRef}>
          {signers.map((s) => {
            const name = s.displayName || s.username;
            return (
              <li className="signer" key={s.id}>
                <Avatar src={s.avatar} name={name} size={32} />
                <div>
                  {isAnonymousUserId(s.id) ? (
                    // Anonymised (docs/privacy.md#what-anonymised-means): nobody's profile to link to.
                    <span className="signer__name">{name}</span>
                  ) : (
                    <a href={robloxProfileUrl(s.id)} target="_blank" rel="noopener noreferrer" className="signer__name">
                      {name}
                      <span className="visually-hidden"> (ROBLOX profile, opens in a new tab)</span>
                    </a>
                  )}
                  {s.username && s.username !== name ? <span className="signer__username"> @{s.username}</span> : null}
                  <p className="signer__date">Signed {formatLongDate(s.signed_at)}</p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {more ? (
        <button type="button" className="button button--secondary" onClick={loadMore} disabled={loading}>
          {loading ? 'Loading signatures...' : more}
        </button>
      ) : null}
      {error ? (
        <p className="error-message" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
