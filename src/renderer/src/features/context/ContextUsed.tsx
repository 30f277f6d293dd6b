import { useId, useRef, useState } from 'react';
import type { RequestContext } from '../../../../shared/context-domain';
import type { TokenUsage } from '../../../../shared/chat-domain';
import type { PromptPart } from '../../../../shared/prompt-domain';
import { PromptFills } from '../prompts/PromptOrigin';
import { AnswerCost } from './AnswerCost';
import { RequestItems } from './RequestItems';
import { requestLabels } from './request-view';
import { calibrationText, exactTokens, reportedText } from './token-format';
import './context.css';

/** "2,310 of 2,804 tokens from the server's cache": what the server did not have to process again. */
function cachedText(cached: number, reported: number): string {
  return `${exactTokens(cached)} of ${exactTokens(reported)} tokens from the server’s cache`;
}

function RequestView({ request }: { request: RequestContext }) {
  return (
    <>
      <RequestItems request={request} />
      {request.notices.length > 0 && (
        <ul className="context-notices small">
          {request.notices.map((notice, index) => (
            <li key={index}>{notice}</li>
          ))}
        </ul>
      )}
      <dl className="context-facts context-totals" data-testid="context-used-totals">
        <dt>Estimated</dt>
        <dd>{exactTokens(request.estimated)} tokens</dd>
        <dt>Server</dt>
        <dd>{reportedText(request.reported)}</dd>
        {request.cached != null && request.reported !== null && (
          <>
            <dt>Cache</dt>
            <dd data-testid="context-used-cached">{cachedText(request.cached, request.reported)}</dd>
          </>
        )}
        <dt>Window</dt>
        <dd>
          {exactTokens(request.window)}, {exactTokens(request.usable)} usable
        </dd>
        <dt>Strategy</dt>
        <dd>{request.strategy}</dd>
        <dt>Calibration</dt>
        <dd>{calibrationText(request.calibration)}</dd>
      </dl>
      {request.retried && (
        <p className="muted small">Sent again, smaller, after the server refused it as too long.</p>
      )}
    </>
  );
}

/** "Context used" under an answer: what its model requests held, item by item, and why things were left out. */
export function ContextUsed({
  requests,
  usage,
  prompt = null,
}: {
  requests: RequestContext[];
  usage: TokenUsage | null;
  /** The saved prompt the question came from: what each of its variables put in is shown first. */
  prompt?: PromptPart | null;
}) {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const index = Math.min(chosen ?? requests.length - 1, requests.length - 1);
  const request = requests[index];
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div
      className="context-used-anchor"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        close();
      }}
    >
      <button
        ref={button}
        type="button"
        className="link-button small"
        data-testid="context-used-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen(!open)}
      >
        Context used
      </button>
      {open && request && (
        <section id={panelId} className="context-used" data-testid="context-used" aria-label="Context used">
          <header className="context-used-header">
            <h4>Context used</h4>
            {requests.length > 1 && (
              <select
                aria-label="Request"
                value={index}
                onChange={(event) => setChosen(Number(event.target.value))}
              >
                {requestLabels(requests).map((label, position) => (
                  <option key={position} value={position}>
                    {label}
                  </option>
                ))}
              </select>
            )}
            <button type="button" className="link-button" onClick={close}>
              Close
            </button>
          </header>
          <AnswerCost usage={usage} requests={requests.length} />
          {prompt && (
            <div className="context-prompt small" data-testid="context-used-prompt">
              From the prompt <strong>/{prompt.name}</strong>:
              <PromptFills prompt={prompt} />
            </div>
          )}
          <RequestView request={request} />
        </section>
      )}
    </div>
  );
}
