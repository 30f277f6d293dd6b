/** Notes used by the selected answer and by the whole session. Empty until chat lands. */
export function ReferencePanel() {
  return (
    <aside className="reference-panel" aria-label="References">
      <header className="pane-header">
        <h2>References</h2>
      </header>
      <div className="empty-state small">
        <p>
          The notes an answer used — the ones you mentioned, and the ones the assistant searched, read and
          cited — appear here.
        </p>
      </div>
    </aside>
  );
}
