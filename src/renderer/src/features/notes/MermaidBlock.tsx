import { useEffect, useRef, useState, type ReactNode } from 'react';
import { describeError } from '../../api';
import type { MermaidDiagram } from './mermaid-diagram';

/**
 * Shows a diagram in a shadow root, with Mermaid's style sheet as a constructed one: the page's CSP
 * (`style-src 'self'`) refuses a <style> element, and the shadow root keeps the rules to the diagram.
 */
function show(host: HTMLElement, diagram: MermaidDiagram): void {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(diagram.css);
  root.adoptedStyleSheets = [sheet];
  root.replaceChildren(diagram.svg);
}

/**
 * A ```mermaid block as its diagram. Mermaid is megabytes of code, so it loads (into chunks of its own)
 * only when a note shows a diagram; until then, and if the source has an error, the code is shown.
 */
export function MermaidBlock({ source, children }: { source: string; children: ReactNode }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ source: string; error?: string } | null>(null);

  useEffect(() => {
    let cancelled = false;
    // Labels at the size of the note's text around the diagram.
    const fontSize = host.current ? getComputedStyle(host.current).fontSize : '16px';
    import('./mermaid-diagram')
      .then(({ renderMermaid }) => renderMermaid(source, fontSize))
      .then(
        (diagram) => {
          if (cancelled || !host.current) return;
          show(host.current, diagram);
          setState({ source });
        },
        (error: unknown) => !cancelled && setState({ source, error: describeError(error) }),
      );
    return () => {
      cancelled = true;
    };
  }, [source]);

  const shown = state?.source === source && !state.error;
  return (
    <div className="mermaid-block" data-testid="mermaid">
      <div ref={host} className="mermaid-diagram" role="img" aria-label="Mermaid diagram" hidden={!shown} />
      {!shown && <pre>{children}</pre>}
      {state?.error && <p className="embed-missing">Mermaid could not draw this diagram: {state.error}</p>}
    </div>
  );
}
