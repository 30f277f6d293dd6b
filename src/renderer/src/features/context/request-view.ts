import {
  contextKinds,
  type ContextKind,
  type IncludeMode,
  type RequestContext,
  type RequestItem,
} from '../../../../shared/context-domain';
import { partLabels } from './context-parts';

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
    case 'chunks':
      return 'passages';
    case 'title':
      return 'title only';
    default:
      return null;
  }
}

/** A similarity score, two decimals. */
export function scoreText(score: number | undefined): string | null {
  return score === undefined ? null : `score ${score.toFixed(2)}`;
}

/** How an item came in, with its score when it has one: "agent · 0.82", "always". */
export function includeText(include: IncludeMode, score: number | undefined): string {
  return score === undefined ? include : `${include} · ${score.toFixed(2)}`;
}

export interface KindGroup<Item> {
  kind: ContextKind;
  /** "Rules", "Tool schemas", as the breakdown names the parts. */
  label: string;
  items: Item[];
  tokens: number;
}

/** Items grouped by kind in prompt order (system, tools, rules, pinned notes…), each group's order kept. */
export function groupByKind<Item extends { kind: ContextKind; tokens: number }>(
  items: readonly Item[],
): KindGroup<Item>[] {
  const groups = new Map<ContextKind, KindGroup<Item>>();
  for (const item of items) {
    const group = groups.get(item.kind) ?? {
      kind: item.kind,
      label: partLabels[item.kind] ?? item.kind,
      items: [],
      tokens: 0,
    };
    group.items.push(item);
    group.tokens += item.tokens;
    groups.set(item.kind, group);
  }
  const rank = (kind: ContextKind) => {
    const index = contextKinds.indexOf(kind);
    return index < 0 ? contextKinds.length : index;
  };
  return [...groups.values()].sort((a, b) => rank(a.kind) - rank(b.kind));
}

/** The request selector's options, in order: "Request 2 of 3 (step 2)", a retry said so. */
export function requestLabels(requests: readonly Pick<RequestContext, 'step' | 'retried'>[]): string[] {
  return requests.map(
    (request, index) =>
      `Request ${index + 1} of ${requests.length} (step ${request.step + 1}${request.retried ? ', sent again' : ''})`,
  );
}
