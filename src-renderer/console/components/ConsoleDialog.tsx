/**
 * A modal panel on the native <dialog> (the page behind is inert, Escape closes, focus returns to
 * the opener): the outbox, the command palette and the shortcut sheet.
 */
import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';

export function ConsoleDialog({
  open,
  title,
  onClose,
  className,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? dialog).focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    const onClosed = () => {
      const target = opener.current;
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    };
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onClosed);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onClosed);
    };
  }, []);

  return (
    <dialog ref={ref} className={`dialog console-dialog ${className ?? ''}`} aria-labelledby={titleId} tabIndex={-1}>
      <div className="console-dialog__head">
        <h2 className="dialog__title" id={titleId}>
          {title}
        </h2>
        <button type="button" className="console-link-button" onClick={onClose}>
          Close<span className="visually-hidden"> {title}</span>
        </button>
      </div>
      {open ? children : null}
    </dialog>
  );
}
