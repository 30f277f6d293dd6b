import type { ToolCallPart } from '../../../../shared/chat-domain';
import { toolResultSize } from '../../../../shared/chat/tool-result-size';

function argumentSummary(args: unknown): string {
  if (args === null || typeof args !== 'object') return JSON.stringify(args) ?? '';
  return Object.entries(args as Record<string, unknown>)
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(', ');
}

/** A tool call in the answer, collapsed to its name, arguments and result size. */
export function ToolCallView({ call }: { call: ToolCallPart }) {
  const state = call.ok === null ? 'running…' : call.ok ? toolResultSize(call.output?.length ?? 0) : 'failed';
  return (
    <details className={`tool-call${call.ok === false ? ' tool-call-failed' : ''}`} data-testid="tool-call">
      <summary>
        <span className="tool-name">{call.name}</span>
        <span className="tool-args">({argumentSummary(call.args)})</span>
        <span className="tool-state">{state}</span>
      </summary>
      <pre className="tool-output">{call.output ?? ''}</pre>
    </details>
  );
}
