import { Component, type ReactNode } from 'react';
import { Button } from './button';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Leaves the screen that broke (e.g. back to the connection picker). */
  onLeave(): void;
}

interface ErrorBoundaryState {
  error?: Error;
}

/**
 * A defect while drawing a screen must not leave a blank window: without this, React unmounts
 * the whole app and the user sees nothing at all. What broke is said in a sentence; the data in
 * main (result sets, staged changes, the journal) is untouched, so trying again is safe.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = {};

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  private readonly retry = (): void => this.setState({ error: undefined });

  private readonly leave = (): void => {
    this.props.onLeave();
    this.setState({ error: undefined });
  };

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <main className="crash-screen">
        <div className="error-message" role="alert">
          <span className="error-icon" aria-hidden="true">
            !
          </span>
          <div className="error-text">
            <h1 className="crash-title">DynoTable could not draw this screen.</h1>
            <p className="error-sentence">
              This is a defect in DynoTable, not in your data: nothing was written. {error.message}
            </p>
            <code className="error-code">{error.name}</code>
          </div>
        </div>
        <div className="crash-actions">
          <Button variant="primary" onClick={this.retry}>
            Try again
          </Button>
          <Button onClick={this.leave}>Back to connections</Button>
        </div>
      </main>
    );
  }
}
