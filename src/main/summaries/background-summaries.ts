import type { SummaryQueue } from './summary-queue';

export interface BackgroundSummariesOptions {
  queue: SummaryQueue;
  /** Whether a model is configured and the user wants notes summarized as they are used. */
  enabled: () => boolean;
  warn?: (message: string) => void;
}

/**
 * Summarizes a note when it is first used: shown in the note panel, or referenced in a chat (its summary
 * asked for while it has none of its content). Opening a vault, indexing and editing notes call the model
 * for nothing; the whole vault is summarized only when the user asks, having seen what it would take.
 * Uses heard in one turn of the event loop (a tool result listing twenty notes) make one run.
 */
export class BackgroundSummaries {
  private readonly used = new Set<string>();
  private scheduled: NodeJS.Immediate | null = null;
  private started = false;

  constructor(private readonly options: BackgroundSummariesOptions) {}

  /** Uses are heard from now on. */
  start(): void {
    this.started = true;
  }

  /** The note at `path` was used without a model summary of its content: summarize it, if that is on. */
  noteUsed(path: string): void {
    if (!this.started || !this.options.enabled()) return;
    this.used.add(path);
    this.scheduled ??= setImmediate(() => {
      this.scheduled = null;
      const paths = [...this.used];
      this.used.clear();
      if (paths.length > 0 && this.options.enabled()) this.run(paths);
    });
  }

  /** Settings changed: what runs was asked of the old model; notes are summarized again as they are used. */
  restart(): void {
    this.used.clear();
    this.options.queue.cancel();
  }

  stop(): void {
    this.started = false;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    this.used.clear();
    this.options.queue.cancel();
  }

  private run(paths: string[]): void {
    this.options.queue.summarize(paths).then(
      (report) => {
        if (report.failed > 0) {
          (this.options.warn ?? console.warn)(
            `Summaries: ${report.failed} notes failed (${report.firstError ?? 'unknown error'}).`,
          );
        }
      },
      (error: Error) => (this.options.warn ?? console.warn)(`Summaries: ${error.message}`),
    );
  }
}
