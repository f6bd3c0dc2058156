/**
 * Accessible modal dialog on the native <dialog> element: showModal() makes the rest of the page
 * inert (focus stays inside), Escape closes it, and focus returns to whatever opened it.
 * Replaces the old window.confirm / window.alert.
 *
 * Usage:
 *   <Dialog open={open} title="Delete petition" onClose={() => setOpen(false)}
 *     actions={<><button onClick={confirm}>Delete</button><button onClick={close}>Cancel</button></>}>
 *     text
 *   </Dialog>
 *   <ConfirmDialog open title="…" message="…" confirmLabel="Delete" danger onConfirm={…} onCancel={…} />
 *   <Dialog panel open={open} title="Outbox" onClose={close} className="console-outbox">…</Dialog>
 */
import { useEffect, useId, useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children?: ReactNode;
  /** Buttons shown at the bottom; the first one receives focus when the dialog opens. */
  actions?: ReactNode;
  /** role="alertdialog" for confirmations and warnings that need an answer. */
  alert?: boolean;
  /**
   * A panel (the console's outbox, command palette, shortcut sheet): a Close button beside the
   * title, content rendered only while open, and focus on its `[data-autofocus]` element.
   * Its classes are styled by src-renderer/console/console.css.
   */
  panel?: boolean;
  /** Extra classes on the <dialog>. */
  className?: string;
}

export function Dialog({ open, title, onClose, children, actions, alert = false, panel = false, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const bodyId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // In the commit itself, not after it: a key pressed right after a dialog closes (a case's x after
  // the palette) must find focus where the close put it, not have it moved there afterwards.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      const first = dialog.querySelector<HTMLElement>(
        '.dialog__actions button, .dialog__actions a, [autofocus], [data-autofocus]',
      );
      (first ?? dialog).focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    // Escape fires 'cancel'; let the owner decide (it closes by setting open=false).
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    // The close event comes a task later; by then a key may have moved focus on purpose: return it
    // to the opener only when it is lost (on the page's body, or still in the closed dialog).
    const onClosed = () => {
      const target = opener.current;
      const active = document.activeElement;
      const lost = !active || active === document.body || dialog.contains(active);
      if (lost && target instanceof HTMLElement && target.isConnected) target.focus();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClosed);
    };
  }, []);

  const heading = (
    <h2 className="dialog__title" id={titleId}>
      {title}
    </h2>
  );
  if (panel) {
    return (
      <dialog
        ref={ref}
        className={`dialog console-dialog ${className ?? ''}`}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="console-dialog__head">
          {heading}
          <button type="button" className="console-link-button" onClick={onClose}>
            Close<span className="visually-hidden"> {title}</span>
          </button>
        </div>
        {open ? children : null}
      </dialog>
    );
  }
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      role={alert ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      tabIndex={-1}
    >
      {heading}
      {children ? (
        <div className="dialog__body" id={bodyId}>
          {children}
        </div>
      ) : null}
      {actions ? <div className="dialog__actions">{actions}</div> : null}
    </dialog>
  );
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      alert
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={`button${danger ? ' button--warning' : ''}`}
            onClick={onConfirm}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{message}</p>
    </Dialog>
  );
}
