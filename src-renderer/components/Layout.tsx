/** Page frame: skip link, header, main landmark (focus target after navigation), footer. */
import type { ReactNode } from 'react';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { FlashNotices } from './FlashNotices.tsx';

export function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <a href="#main-content" className="skip-link">
        Skip to main content
      </a>
      <Header />
      <main className="page-width main" id="main-content" tabIndex={-1}>
        <FlashNotices />
        {children}
      </main>
      <Footer />
    </div>
  );
}
