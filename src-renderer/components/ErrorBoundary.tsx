/**
 * Two error boundaries: the fatal one around the whole app ('Something went wrong' with
 * Reload Page and expandable details) and a component one around each page or widget
 * ('Component Error'), so one broken part does not take the page down.
 */
import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { platform } from '../platform/index.ts';

interface BoundaryState {
  error: Error | null;
}

export const FATAL_ERROR_TEXT = 'The application encountered an error. Please try refreshing the page.';

export function FatalErrorScreen({ error, onReload }: { error: Error | null; onReload: () => void }) {
  return (
    <div className="fatal-error" role="alert">
      <h1 className="heading-xl">Something went wrong</h1>
      <p className="body-l">{FATAL_ERROR_TEXT}</p>
      <button type="button" className="button" onClick={onReload}>
        Reload Page
      </button>
      {error ? (
        <details className="details">
          <summary>Error details</summary>
          <pre className="error-details">{`${error.name}: ${error.message}\n${error.stack ?? ''}`}</pre>
        </details>
      ) : null}
    </div>
  );
}

export class FatalErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Fatal rendering error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <main className="page-width main" id="main-content">
          <FatalErrorScreen error={this.state.error} onReload={() => platform.reload()} />
        </main>
      );
    }
    return this.props.children;
  }
}

export function ComponentErrorScreen({ error, onRetry }: { error: Error | null; onRetry?: () => void }) {
  return (
    <div className="notice notice--error component-error" role="alert">
      <div className="notice__body">
        <h2 className="notice__title">Component Error</h2>
        <p>This part of the page could not be displayed. Please try again.</p>
        {onRetry ? (
          <button type="button" className="button button--secondary" onClick={onRetry}>
            Try again
          </button>
        ) : null}
        {error ? (
          <details className="details">
            <summary>Error details</summary>
            <pre className="error-details">{error.message}</pre>
          </details>
        ) : null}
      </div>
    </div>
  );
}

export class ComponentErrorBoundary extends Component<{ children: ReactNode; name?: string }, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`Component error${this.props.name ? ` in ${this.props.name}` : ''}`, error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return <ComponentErrorScreen error={this.state.error} onRetry={() => this.setState({ error: null })} />;
    }
    return this.props.children;
  }
}
