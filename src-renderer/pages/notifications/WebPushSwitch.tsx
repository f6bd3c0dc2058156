/**
 * The "Web push" switch of the notification settings (docs/notifications.md#web-push): on subscribes
 * this browser (asking its permission) and registers it as one of the member's devices; off removes
 * it. It acts at once, and says where things stand: on, off, blocked by the browser, not possible here.
 */
import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { subscribeThisDevice, unsubscribeThisDevice, webPushState, WebPushRefused, type WebPushState } from '../../services/webPush.ts';
import { FEED_TEXTS } from './texts.ts';

function stateText(state: WebPushState): string {
  switch (state.kind) {
    case 'unsupported':
      return FEED_TEXTS.pushUnsupported;
    case 'off-on-site':
      return FEED_TEXTS.pushOffOnSite;
    case 'blocked':
      return FEED_TEXTS.pushBlocked;
    case 'ready':
      return state.subscribed ? FEED_TEXTS.pushOn : FEED_TEXTS.pushOff;
  }
}

export function WebPushSwitch() {
  const [state, setState] = useState<WebPushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // Said once the member switched (on loading, the switch itself shows the state).
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    let current = true;
    webPushState().then(
      (next) => current && setState(next),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, []);

  const toggle = async (on: boolean) => {
    setBusy(true);
    setFailed(false);
    try {
      setState(on ? await subscribeThisDevice() : await unsubscribeThisDevice(state?.kind === 'ready' ? state.deviceId : null));
    } catch (error) {
      if (error instanceof WebPushRefused) setState(error.state);
      else setFailed(true);
    } finally {
      setChanged(true);
      setBusy(false);
    }
  };

  const available = state?.kind === 'ready' || state?.kind === 'blocked';
  return (
    <div className="web-push">
      <h3 className="heading-s" id="web-push-title">
        {FEED_TEXTS.pushTitle}
      </h3>
      {state && state.kind !== 'ready' && state.kind !== 'blocked' ? (
        <p className="hint">{stateText(state)}</p>
      ) : (
        <div className="checkbox">
          <input
            type="checkbox"
            id="push-enabled"
            aria-describedby="push-enabled-hint"
            checked={state?.kind === 'ready' && state.subscribed}
            disabled={!available || busy}
            aria-busy={busy || undefined}
            onChange={(event) => void toggle(event.target.checked)}
          />
          <label htmlFor="push-enabled">{FEED_TEXTS.pushLabel}</label>
          <p className="hint" id="push-enabled-hint">
            {FEED_TEXTS.pushHint}
          </p>
        </div>
      )}
      {failed ? (
        <Notice tone="error" live="alert">
          <p>{FEED_TEXTS.pushFailed}</p>
        </Notice>
      ) : null}
      {changed && !failed && state ? (
        <Notice tone={state.kind === 'ready' ? 'success' : 'warning'} live="status">
          <p>{stateText(state)}</p>
        </Notice>
      ) : null}
    </div>
  );
}
