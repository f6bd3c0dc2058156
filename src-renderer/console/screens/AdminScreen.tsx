/** The administrator's screens of the web app, inside the console (writes go through the outbox). */
import type { AdminSection } from '../state/stores.ts';
import { ADMIN_SECTIONS } from '../components/Navigation.tsx';

export function AdminScreen({ section }: { section: AdminSection }) {
  return (
    <section className="console-screen" aria-labelledby="admin-title">
      <h1 className="heading-l" id="admin-title" tabIndex={-1}>
        {ADMIN_SECTIONS[section]}
      </h1>
    </section>
  );
}
