import type { ContextKind, RequestContext, RequestItem } from '../../../../shared/context-domain';

const kindLabels: Record<ContextKind, string> = {
  system: 'system',
  tools: 'tools',
  rule: 'rule',
  pinned: 'pinned',
  reference: 'note',
  summary: 'summary',
  history: 'history',
  'agent-prompt': 'agent prompt',
  attachment: 'attachment',
  current: 'message',
  'tool-results': 'tool result',
};

/** A request item's kind, in a word. */
export function kindLabel(kind: ContextKind): string {
  return kindLabels[kind] ?? kind;
}

/** How much of an item went in, when not all of it; null for a whole item. */
export function formLabel(form: RequestItem['form']): string | null {
  switch (form) {
    case 'cut':
      return 'cut';
    case 'fallback':
      return 'summary only';
    case 'masked':
      return 'masked';
    default:
      return null;
  }
}

/** A similarity score, two decimals. */
export function scoreText(score: number | undefined): string | null {
  return score === undefined ? null : `score ${score.toFixed(2)}`;
}

/** The request selector's options, in order: "Request 2 of 3 (step 2)", a retry said so. */
export function requestLabels(requests: readonly Pick<RequestContext, 'step' | 'retried'>[]): string[] {
  return requests.map(
    (request, index) =>
      `Request ${index + 1} of ${requests.length} (step ${request.step + 1}${request.retried ? ', sent again' : ''})`,
  );
}
