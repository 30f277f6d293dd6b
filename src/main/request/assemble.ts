import type { LlmMessage } from '../llm/llm-types';
import { planBudget, type Budget } from './budget';
import { calibrated } from './count/calibration';
import { planCompaction, type CompactionPlan } from './history/compaction-plan';
import { overBudget, selectItems, type PlacedItem } from './fit/placed-items';
import type { ContextOptions } from './context-options';
import { contextKinds } from '../../shared/context-domain';
import type { AssembleInput, ContextKind, DroppedItem, RequestItem } from './context-types';
import { groupDigits } from '../../shared/group-digits';
import { planHistory } from './history/history-plan';
import { agentPromptMessage, packRequest, reminderText, summaryMessage } from './request-pack';
import { messageOverhead, replyPriming, type TokenCounter } from './count/token-counter';
import { prepareTurn } from './history/turn-steps';

/** One request, ready for the model, with the account of what is in it and what was left out. */
export interface AssembledRequest {
  system: string;
  messages: LlmMessage[];
  /** The request context: every item with its local tokens; they add up to `estimate.raw`. */
  items: RequestItem[];
  dropped: DroppedItem[];
  /** Local tokens by part. */
  parts: Record<ContextKind, number>;
  estimate: { raw: number; calibrated: number; ratio: number };
  budget: Budget;
  history: {
    sentIds: number[];
    omittedIds: number[];
    summarizedIds: number[];
    masked: number;
    cut: number;
    /** Tool results of messages before this one are masked; null when none are. */
    maskedBefore: number | null;
  };
  /** The latest message's references as sent: later requests replay them as they were. */
  references: PlacedItem[];
  /** Set when compacting would help (or was asked for): run it, then assemble again. */
  compaction: CompactionPlan | null;
  /** Set when even the parts that cannot be left out exceed the usable window (calibrated tokens). */
  overflow: { needed: number; available: number } | null;
  notices: string[];
}

/**
 * Builds one request: the parts that must be there, the context items by priority within their share,
 * then as much of the conversation as the rest of the usable window holds, by the session's strategy.
 */
export function assembleRequest(
  input: AssembleInput,
  counter: TokenCounter,
  ratio: number,
  options: ContextOptions,
): AssembledRequest {
  const strategy = input.strategy ?? 'hybrid';
  const aggressive = input.aggressive ?? false;
  const budget = planBudget(input.window, ratio, options, aggressive);
  const { raw } = budget;
  const notices: string[] = [];

  const offeredTools = (input.tools ?? []).map((schema) => ({
    schema,
    include: schema.include ?? ('always' as const),
    score: schema.score,
    tokens: counter.tool(schema),
  }));
  const ownTools = offeredTools.filter((tool) => !tool.schema.optional);
  const ownTokens = ownTools.reduce((sum, tool) => sum + tool.tokens, 0);
  const systemFor = (names: readonly string[]) =>
    typeof input.system === 'string' ? input.system : input.system(names);
  const reminders = input.reminders ?? [];
  const agentPrompt = input.agentPrompt?.trim() ? input.agentPrompt.trim() : null;
  const fixedSystemTokens = counter.text(systemFor(ownTools.map((tool) => tool.schema.name)));
  const baseWithoutTools =
    messageOverhead +
    replyPriming +
    fixedSystemTokens +
    (agentPrompt ? messageOverhead + counter.text(agentPromptMessage(agentPrompt)) : 0) +
    messageOverhead +
    counter.text(input.current.text) +
    reminders.reduce((sum, reminder) => sum + messageOverhead + counter.text(reminderText(reminder)), 0);
  const prepare = (mask: boolean) => prepareTurn(input.turn ?? [], raw.itemCap, mask, options, counter);
  const turnTokens = (steps: ReturnType<typeof prepare>) => steps.reduce((sum, step) => sum + step.tokens, 0);
  // Only `hybrid` masks this turn's tool results; the others send them as they are.
  const smallestTurn = prepare(strategy === 'hybrid');
  // MCP tools in every request fit the share for tools and items like the items do (the user's own
  // picks first), and never push a request over; Kasten's own tools are always sent.
  const toolRoom = Math.min(
    raw.context - ownTokens,
    raw.usable - baseWithoutTools - ownTokens - turnTokens(smallestTurn),
  );
  const optionalTools = offeredTools
    .filter((tool) => tool.schema.optional)
    .sort((a, b) => Number(a.include === 'always') - Number(b.include === 'always'));
  const keptTools: typeof offeredTools = [];
  const droppedTools: DroppedItem[] = [];
  let optionalTokens = 0;
  for (const tool of optionalTools) {
    if (optionalTokens + tool.tokens <= toolRoom) {
      keptTools.push(tool);
      optionalTokens += tool.tokens;
      continue;
    }
    const { schema, include, tokens } = tool;
    droppedTools.push({ kind: 'tools', label: schema.name, include, tokens, reason: overBudget });
  }
  if (droppedTools.length > 0) notices.push(toolsLeftOut(droppedTools.map((tool) => tool.label)));
  const fixedTools = [...ownTools, ...keptTools];
  const toolTokens = ownTokens + optionalTokens;
  const base = baseWithoutTools + toolTokens;
  const offered = input.items ?? [];
  const selection = selectItems(
    offered,
    {
      share: raw.context - toolTokens,
      itemCap: raw.itemCap,
      pinned: raw.pinned,
      // Items never push a request over: what is left once the turn's tool results are at their smallest.
      free: raw.usable - base - turnTokens(smallestTurn),
      aggressive,
      ratio,
      sent: input.sent,
    },
    counter,
    options.cutNotice,
  );
  const chosenTools = selection.placed.flatMap((placed) =>
    placed.input.tool
      ? [
          {
            schema: placed.input.tool,
            include: placed.input.include,
            score: placed.input.score,
            tokens: placed.tokens,
          },
        ]
      : [],
  );
  const tools = [...fixedTools, ...chosenTools];
  const system = systemFor(tools.map((tool) => tool.schema.name));
  let fixed =
    base -
    fixedSystemTokens +
    counter.text(system) +
    selection.tokens +
    selection.placed.filter((placed) => !placed.input.tool).length * messageOverhead;
  let turn = strategy !== 'hybrid' || aggressive ? smallestTurn : prepare(false);
  if (!aggressive && strategy === 'hybrid' && fixed + turnTokens(turn) > raw.usable) turn = smallestTurn;
  fixed += turnTokens(turn);

  let summary = input.summary?.text.trim() ? input.summary : null;
  let summaryTokens = summary ? messageOverhead + counter.text(summaryMessage(summary.text)) : 0;
  if (summary && fixed + summaryTokens > raw.usable) {
    notices.push('The summary of earlier messages did not fit this request and was left out.');
    summary = null;
    summaryTokens = 0;
  }
  const covered = new Set(input.summary?.coveredIds ?? []);
  const visible = covered.size > 0 ? input.history.filter((entry) => !covered.has(entry.id)) : input.history;
  const quantum = Math.max(1, Math.floor(raw.usable * options.cutShare));
  const history = planHistory({
    history: visible,
    strategy,
    aggressive,
    room: Math.max(0, raw.usable - fixed - summaryTokens),
    thresholdRoom: raw.threshold - fixed - summaryTokens,
    itemCap: raw.itemCap,
    // A compaction leaves the request a quantum below the threshold with the longest summary: the turns
    // after it append to the same prefix instead of compacting again at once.
    tailTokens: Math.max(0, Math.min(raw.tail, raw.threshold - fixed - raw.summary - quantum)),
    options: { ...options, tailTurns: aggressive ? Math.min(2, options.tailTurns) : options.tailTurns },
    counter,
    quantum,
    previous: input.previousCut,
  });

  const wanted = input.compactNow ? 'requested' : history.over ? 'threshold' : null;
  // `discard` never compacts by itself, but `/compact` is the user asking.
  const compaction =
    wanted === null || (strategy === 'discard' && wanted !== 'requested')
      ? null
      : planCompaction({
          history: visible,
          blocks: history.blocks,
          tailStart: history.tailStart,
          blockTokens: history.blockTokens,
          summary: input.summary ?? null,
          budget,
          reason: wanted,
          focus: input.compactNow?.focus,
          options,
          counter,
        });

  const byKind = (kind: ContextKind) => selection.placed.filter((placed) => placed.input.kind === kind);
  const packed = packRequest(
    {
      systemPrompt: system,
      rules: byKind('rule'),
      tools,
      summary,
      history: {
        messages: history.messages,
        messageTokens: history.messageTokens,
        sentIds: history.sentIds,
        form: history.masked > 0 ? 'masked' : history.cut > 0 ? 'cut' : 'whole',
      },
      agentPrompt,
      before: [...byKind('pinned'), ...byKind('attachment')],
      current: input.current,
      references: byKind('reference'),
      turn,
      reminders,
    },
    counter,
  );

  const parts = Object.fromEntries(contextKinds.map((kind) => [kind, 0])) as Record<ContextKind, number>;
  for (const item of packed.items) parts[item.kind] += item.tokens;
  const overflow =
    packed.tokens > raw.usable
      ? { needed: calibrated(packed.tokens, ratio), available: budget.usable }
      : null;
  if (overflow) {
    notices.push(
      `This request needs about ${groupDigits(overflow.needed)} tokens; ` +
        `${groupDigits(overflow.available)} are available.`,
    );
  }
  return {
    system: packed.system,
    messages: packed.messages,
    items: packed.items,
    dropped: [...droppedTools, ...selection.dropped],
    parts,
    estimate: { raw: packed.tokens, calibrated: calibrated(packed.tokens, ratio), ratio },
    budget,
    history: {
      sentIds: history.sentIds,
      omittedIds: history.omittedIds,
      summarizedIds: summary ? [...summary.coveredIds] : [],
      masked: history.masked,
      cut: history.cut,
      maskedBefore: history.maskedBefore,
    },
    // A note the message itself brought (a saved prompt's {{note}}) is kept with it as its linked notes are.
    references: [
      ...byKind('pinned').filter((placed) => placed.input.include === 'direct'),
      ...byKind('reference'),
    ],
    compaction,
    overflow,
    notices,
  };
}

/** "Left out of this request for lack of room: 3 tools (a, b, c)." — at most five names. */
function toolsLeftOut(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  const more = names.length > 5 ? ` and ${names.length - 5} more` : '';
  const what = names.length === 1 ? 'tool' : 'tools';
  return `Left out of this request for lack of room: ${names.length} ${what} (${shown}${more}).`;
}
