/** Copies an address to the clipboard and says so in a polite live region. */
import { useEffect, useState } from 'react';
import { platform } from '../platform/index.ts';

export function CopyLinkButton({ path, label = 'Copy link' }: { path: string; label?: string }) {
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!message) return undefined;
    const timer = window.setTimeout(() => setMessage(''), 4_000);
    return () => window.clearTimeout(timer);
  }, [message]);

  const copy = async () => {
    const url = platform.absoluteUrl(path);
    try {
      await platform.copyText(url);
      setMessage('Link copied to clipboard');
    } catch {
      setMessage(`Could not copy automatically. The link is ${url}`);
    }
  };

  return (
    <div className="copy-link">
      <button type="button" className="button button--secondary" onClick={copy}>
        {label}
      </button>
      <span className="copy-link__status" role="status">
        {message}
      </span>
    </div>
  );
}
