import { connectionProblem, useConnectionStore } from './connection-store';
import './connection.css';

/** Says at once, above everything, that the page lost Kasten and what to do about it. */
export function ConnectionBanner() {
  const state = useConnectionStore((store) => store.state);
  const problem = connectionProblem(state);
  if (!problem) return null;
  return (
    <p className={`connection-banner connection-${state}`} role="alert" data-testid="connection-banner">
      {problem}
    </p>
  );
}
