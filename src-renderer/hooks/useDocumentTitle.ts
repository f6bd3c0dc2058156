/**
 * Sets the document title. Home keeps the site title alone; other pages put their own name first
 * (GOV.UK pattern, WCAG 2.4.2) and keep the site title after it.
 */
import { useEffect } from 'react';
import { PAGE_TITLE } from '../../src-shared/domain/core-constants.ts';

export function pageTitle(name?: string | null): string {
  return name ? `${name} - ${PAGE_TITLE}` : PAGE_TITLE;
}

export function useDocumentTitle(name?: string | null): void {
  useEffect(() => {
    document.title = pageTitle(name);
  }, [name]);
}
