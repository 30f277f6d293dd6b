import { AppError } from '../app-error';
import type { NoteHash } from '../index/note-catalog';
import type { ChatModel } from '../llm/llm-types';
import { summariesWithoutAsking, type SummaryProgress, type SummaryReport } from '../../shared/model-domain';
import { summaryMessages, summaryPromptVersion, summarySystemPrompt, tidySummary } from './summary-prompt';
import type { SummaryStore } from './summary-store';

export interface NoteSummary {
  text: string;
  source: 'llm' | 'extract';
}

export interface SummaryQueueOptions {
  store: SummaryStore;
  /** The model that writes summaries, or null when none is chosen. */
  model: () => ChatModel | null;
  /**
   * That model's name and server, without building a client (summaries are looked up per reference): the
   * cache key, since one name on two servers may be two models. Without it, the model's name.
   */
  modelKey?: () => string | null;
  /** The notes at `paths` (every note when omitted) as last indexed. */
  notes: (paths?: readonly string[]) => NoteHash[];
  readNote: (path: string) => Promise<{ content: string }>;
  /** Model calls in flight at once (default 2): enough to hide latency, few enough for a local model. */
  concurrency?: number;
  onProgress?: (progress: SummaryProgress) => void;
  /**
   * Told when a note is used (its summary asked for, or the note shown: see `used`) and it has no model
   * summary of its content: the runner of summaries on use hears it here.
   */
  onMissing?: (path: string) => void;
}

/** What a run would do: the notes that need a model call (one per content) and those already summarized. */
export interface SummaryWork {
  toDo: NoteHash[];
  cached: number;
}

/** Notes sharing one content hash: they share one model call and one cached summary. */
interface Task {
  hash: string;
  notes: NoteHash[];
}

const extractChars = 200;

/**
 * Makes LLM summaries of notes and answers with the best summary a note has: the cached LLM one for its
 * current content, else its lead paragraph. Runs are queued one after the other, each calling the model
 * for at most `concurrency` notes at a time; one of more than `summariesWithoutAsking` calls needs the
 * user's go-ahead.
 */
export class SummaryQueue {
  private controller = new AbortController();
  private queue: Promise<unknown> = Promise.resolve();
  private current: SummaryProgress = { state: 'idle', done: 0, total: 0, failed: 0, firstError: null };

  constructor(private readonly options: SummaryQueueOptions) {}

  /**
   * Summarizes the notes at `paths` (every note when omitted) that have no summary for their content,
   * model and prompt version. Failures are counted in the report; it rejects when no model is configured,
   * and when more than `summariesWithoutAsking` notes need a call and the run is not `confirmed`.
   */
  async summarize(
    paths?: readonly string[],
    { signal, confirmed = false }: { signal?: AbortSignal; confirmed?: boolean } = {},
  ): Promise<SummaryReport> {
    const model = this.options.model();
    if (!model) throw noSummaryModel();
    if (!confirmed) {
      const calls = this.work(paths).toDo.length;
      if (calls > summariesWithoutAsking) {
        throw new AppError(
          'invalid-input',
          `${calls} notes have no summary from ${model.name} yet: that is ${calls} model calls. ` +
            'See what it would take first (Settings → Note summaries, or kasten summarize) and confirm.',
        );
      }
    }
    // Taken now, so cancel() also drops runs still waiting behind the running one.
    const cancelled = this.controller.signal;
    const combined = signal ? AbortSignal.any([cancelled, signal]) : cancelled;
    const run = this.queue.then(() => this.run(model, paths, combined));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * The notes at `paths` (every note when omitted) that need a model call, one per content, and how many
   * already have a summary. A note without words (empty, binary, unreadable) needs none.
   */
  work(paths?: readonly string[]): SummaryWork {
    const key = this.cacheKey();
    const { tasks, cached } = this.plan(paths, key);
    return { toDo: [...tasks.values()].map((task) => task.notes[0]!), cached };
  }

  /** The note at `path` is in use (shown in the note panel): `onMissing` hears it if it has no model summary. */
  used(path: string): void {
    this.summaryFor(path);
  }

  /** Stops the running and queued runs; summaries already made stay cached. */
  cancel(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }

  progress(): SummaryProgress {
    return this.current;
  }

  /**
   * The LLM summary of the note's current content when cached, else its trimmed lead (and `onMissing`
   * hears that the note is used without one); null for no note.
   */
  summaryFor(path: string): NoteSummary | null {
    const note = this.options.notes([path]).find((candidate) => candidate.path === path);
    if (!note) return null;
    const key = this.cacheKey();
    const cached = key ? this.options.store.get(note.hash, key, summaryPromptVersion) : null;
    if (cached) return { text: cached, source: 'llm' };
    if (note.words > 0) this.options.onMissing?.(path);
    return { text: extractiveSummary(note.lead), source: 'extract' };
  }

  private cacheKey(): string | null {
    return this.options.modelKey ? this.options.modelKey() : (this.options.model()?.name ?? null);
  }

  /**
   * The notes at `paths` (all when omitted) with words, those of them with a summary cached under `key`,
   * and the others as tasks, one per content. A note without words (empty, binary, unreadable) has nothing
   * to summarize: no call is made for it.
   */
  private plan(paths: readonly string[] | undefined, key: string | null) {
    const wanted = paths ? new Set(paths) : null;
    const notes = this.options
      .notes(paths)
      .filter((note) => (!wanted || wanted.has(note.path)) && note.words > 0);
    const tasks = new Map<string, Task>();
    let cached = 0;
    for (const note of notes) {
      if (key !== null && this.options.store.get(note.hash, key, summaryPromptVersion) !== null) {
        cached++;
        continue;
      }
      const task = tasks.get(note.hash);
      if (task) task.notes.push(note);
      else tasks.set(note.hash, { hash: note.hash, notes: [note] });
    }
    return { notes, tasks, cached };
  }

  private async run(
    model: ChatModel,
    paths: readonly string[] | undefined,
    signal: AbortSignal,
  ): Promise<SummaryReport> {
    const started = performance.now();
    const key = this.cacheKey() ?? model.name;
    const { notes, tasks, cached } = this.plan(paths, key);

    const progress: SummaryProgress = {
      state: 'running',
      done: 0,
      total: notes.length - cached,
      failed: 0,
      firstError: null,
    };
    this.report(progress);
    const pending = [...tasks.values()];
    const worker = async () => {
      for (let task = pending.shift(); task && !signal.aborted; task = pending.shift()) {
        try {
          await this.summarizeOne(model, key, task, signal);
        } catch (error) {
          // A call cut short by cancelling is not a failure; the note is simply still to do.
          if (signal.aborted) return;
          progress.failed += task.notes.length;
          progress.firstError ??= `${task.notes[0]?.path}: ${error instanceof Error ? error.message : String(error)}`;
        }
        progress.done += task.notes.length;
        this.report(progress);
      }
    };
    const workers = Math.min(Math.max(1, this.options.concurrency ?? 2), tasks.size);
    await Promise.all(Array.from({ length: workers }, worker));

    const cancelled = signal.aborted && progress.done < progress.total;
    this.report({ ...progress, state: cancelled ? 'cancelled' : 'idle' });
    return {
      model: model.name,
      notes: notes.length,
      summarized: progress.done - progress.failed,
      cached,
      failed: progress.failed,
      firstError: progress.firstError,
      cancelled,
      ms: Math.round(performance.now() - started),
    };
  }

  private async summarizeOne(model: ChatModel, key: string, task: Task, signal: AbortSignal): Promise<void> {
    const [note] = task.notes;
    if (!note) return;
    const { content } = await this.options.readNote(note.path);
    signal.throwIfAborted();
    let reply = '';
    const messages = summaryMessages({ title: note.title, content });
    for await (const event of model.stream({ system: summarySystemPrompt, messages, tools: [], signal })) {
      if (event.type === 'text') reply += event.text;
    }
    // A stream cut by cancelling may end quietly; half a summary must not be cached.
    signal.throwIfAborted();
    const summary = tidySummary(reply);
    if (summary === '') throw new Error('The model answered with an empty summary.');
    this.options.store.put(task.hash, key, summaryPromptVersion, summary);
  }

  private report(progress: SummaryProgress): void {
    this.current = { ...progress };
    this.options.onProgress?.(this.current);
  }
}

/** Why notes cannot be summarized: no model is chosen. */
export function noSummaryModel(): AppError {
  return new AppError(
    'invalid-input',
    'No model is chosen yet: pick a provider and a model in Settings to summarize notes.',
  );
}

/** A lead paragraph cut to about 200 characters at a word boundary. */
export function extractiveSummary(lead: string, maxChars = extractChars): string {
  const text = lead.replace(/\s+/g, ' ').trim();
  if (text.length <= maxChars) return text;
  const head = text.slice(0, maxChars);
  const space = head.lastIndexOf(' ');
  // One very long word (a URL) is cut mid-word rather than dropping most of the text.
  const cut = space > maxChars / 2 ? head.slice(0, space) : head;
  return `${cut.replace(/[\s,;:.…-]+$/, '')}…`;
}

/** One line for the CLI: "Summarized 12 notes (3 cached, 1 failed: …) in 4.2 s". */
export function describeSummaryReport(report: SummaryReport): string {
  const parts = [`${report.cached} cached`];
  if (report.failed > 0) parts.push(`${report.failed} failed: ${report.firstError ?? 'unknown error'}`);
  const seconds = `${(report.ms / 1000).toFixed(1)} s`;
  const notes = `${report.notes} ${report.notes === 1 ? 'note' : 'notes'}`;
  if (report.cancelled) {
    return `Summarizing cancelled: ${report.summarized + report.cached} of ${notes} done (${parts.join(', ')}) in ${seconds}`;
  }
  return `Summarized ${notes} (${parts.join(', ')}) in ${seconds}`;
}
