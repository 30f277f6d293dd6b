import type { DroppedItem } from '../../../shared/context-domain';
import type { AgentPromptPlacement, ItemInclude } from '../../../shared/context-items-domain';
import { chooseAgentItems, defaultAgentSelection } from './agent-selection';
import type { ContextItemInput } from '../context-types';
import { toolSchemasOf } from './tool-schemas';
import type { LlmTool } from '../../llm/llm-types';
import type { Rule } from '../../items/rules-catalog';
import type { Relevance } from './relevance';
import type { CatalogTool } from '../../items/tool-catalog';

/** What one answer's requests may hold besides the conversation, decided once per answer. */
export interface AnswerItems {
  /** Tools in every request of the answer, with how each came in; MCP tools are `optional` (see OfferedTool). */
  tools: { tool: LlmTool; include: 'always' | 'manual'; optional?: boolean }[];
  /** Rules, pinned notes and the tools chosen for the question (as items, so the budget can cap them). */
  items: ContextItemInput[];
  /** The tools that may be chosen for the question: those of `items` are sent if the budget has room. */
  candidateTools: LlmTool[];
  /** `agent` items the question is not about, with their scores, why, and their calibrated tokens. */
  unchosen: DroppedItem[];
  agentPrompt: { text: string; placement: AgentPromptPlacement } | null;
  /** Said in the request context: an MCP server that did not start, a pinned note that is gone. */
  notices: string[];
}

/** One `agent` item as the selection sees it: a key, its passages, and what it becomes when chosen. */
export interface AgentCandidate {
  key: string;
  passages: string[];
  chosen: (score: number) => ContextItemInput;
  left: (score: number, reason: string) => DroppedItem;
}

/**
 * The candidates for relevance among the rules and tools in force, with the passages they are matched by;
 * what one left out would have cost is counted with `tokens`, as the catalogue counts the tools.
 */
export function agentCandidates(
  rules: readonly Rule[],
  tools: readonly CatalogTool[],
  tokens: (text: string) => number,
): AgentCandidate[] {
  const fromRules = rules
    .filter((rule) => rule.include === 'agent')
    .map<AgentCandidate>((rule) => ({
      key: `rule:${rule.path}`,
      passages: rule.passages,
      chosen: (score) => ruleItem(rule, 'agent', score),
      left: (score, reason) => ({
        kind: 'rule',
        label: rule.name,
        path: rule.path,
        include: 'agent',
        score,
        tokens: tokens(rule.text),
        reason,
      }),
    }));
  const fromTools = tools
    .filter(({ info }) => info.include === 'agent')
    .map<AgentCandidate>(({ tool, info }) => ({
      key: `tool:${tool.name}`,
      passages: [`${tool.name.replace(/^mcp__/, '').replace(/_+/g, ' ')}: ${tool.description}`],
      chosen: (score) => ({
        kind: 'tools',
        label: tool.name,
        include: 'agent',
        score,
        text: '',
        tool: toolSchemasOf([tool])[0]!,
      }),
      left: (score, reason) => ({
        kind: 'tools',
        label: tool.name,
        include: 'agent',
        score,
        tokens: info.tokens,
        reason,
      }),
    }));
  return [...fromRules, ...fromTools];
}

/** Every candidate's passages, in one list: what the question is scored against. */
export function candidatePassages(candidates: readonly AgentCandidate[]): string[] {
  return candidates.flatMap((candidate) => candidate.passages);
}

/** Chooses among the candidates by the passages' scores (top K passages, top N items, always at 0.7). */
export function chooseCandidates(
  candidates: readonly AgentCandidate[],
  relevance: Relevance,
): { items: ContextItemInput[]; unchosen: DroppedItem[] } {
  // One key per passage, in the order the passages were scored (see candidatePassages).
  const keys = candidates.flatMap((candidate) => candidate.passages.map(() => candidate.key));
  const passages = keys.map((item, position) => ({ item, score: relevance.scores[position] ?? 0 }));
  const choices = chooseAgentItems(
    candidates.map((candidate) => candidate.key),
    passages,
    { ...defaultAgentSelection, minimum: relevance.minimum },
  );
  const items: ContextItemInput[] = [];
  const unchosen: DroppedItem[] = [];
  choices.forEach((choice, index) => {
    const candidate = candidates[index]!;
    if (choice.chosen) items.push(candidate.chosen(choice.score));
    else unchosen.push(candidate.left(choice.score, `${choice.reason} (matched by ${relevance.by})`));
  });
  return { items, unchosen };
}

/** A rule as a request item: in the system prompt, with its include mode and (for `agent`) its score. */
export function ruleItem(rule: Rule, include: ItemInclude, score?: number): ContextItemInput {
  return { kind: 'rule', label: rule.name, path: rule.path, include, score, text: rule.text };
}
