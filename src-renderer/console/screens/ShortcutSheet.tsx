/** `?`: every shortcut of the console in one sheet. */
import { Dialog } from '../../components/Dialog.tsx';

export const SHORTCUTS: ReadonlyArray<[string, string]> = [
  ['↑ / ↓ or j / k', 'Move through a queue'],
  ['Enter', 'Open the selected petition or moderation case'],
  ['r', 'Respond to the petition (rank 6 and up)'],
  ['d', 'Record a debate (rank 7 and up)'],
  ['Ctrl + Enter', 'Submit the form and go to the next petition'],
  ['Esc', 'Back to the queue (from a petition or a case), or close a panel'],
  ['1 / 2 / 3', 'Go to the first / second / third queue (3: moderation, rank 7 and up)'],
  ['Space', 'Moderation queue: mark or unmark the selected case for a bulk decision'],
  ['k', 'Moderation case: keep (settle the reports), then Enter'],
  ['h', 'Moderation case: hide, with a reason the creator reads'],
  ['x', 'Moderation case: reject, with a standard reason'],
  ['r', 'Moderation case: restore, then Enter'],
  ['b', 'Moderation case: ban the creator (administrator)'],
  ['s', 'Sync now'],
  ['o', 'Open the outbox'],
  ['Ctrl + K / ⌘ + K', 'Command palette: petitions, screens and actions'],
  ['?', 'This sheet'],
];

export function ShortcutSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog panel open={open} title="Keyboard shortcuts" onClose={onClose} className="console-shortcuts">
      <table className="console-table" data-autofocus tabIndex={-1}>
        <caption className="visually-hidden">Keyboard shortcuts</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={`${keys}: ${what}`}>
              <td>
                <kbd>{keys}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
