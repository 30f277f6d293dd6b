import type { AppEvents } from '../app-events';
import type { SummaryQueue } from './summary-queue';

export interface BackgroundSummariesOptions {
  queue: SummaryQueue;
  events: AppEvents;
  /** Whether a model is configured and the user wants summaries made in the background. */
  enabled: () => boolean;
  /** Quiet time after the last edit before edited notes are summarized (a note being typed changes often). */
  settleMs?: number;
  warn?: (message: string) => void;
}

/**
 * Keeps model summaries current without being asked: every note once an index pass finishes, edited notes
 * once their edits settle. The queue's cache makes repeated runs cost nothing for unchanged notes.
 */
export class BackgroundSummaries {
  private readonly edited = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: BackgroundSummariesOptions) {}

  start(): void {
    const { events } = this.options;
    const stops = [
      events.on('index:progress', ({ state }) => {
        if (state === 'idle') this.runAll();
      }),
      events.on('index:changed', ({ paths }) => this.noteEdited(paths)),
    ];
    this.unsubscribe = () => stops.forEach((stop) => stop());
  }

  /** Settings changed: stop what runs and, when still enabled, start over with the new model. */
  restart(): void {
    this.options.queue.cancel();
    this.runAll();
  }

  stop(): void {
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.options.queue.cancel();
  }

  private runAll(): void {
    this.edited.clear();
    if (this.options.enabled()) this.run(undefined);
  }

  private noteEdited(paths: string[]): void {
    if (!this.options.enabled()) return;
    for (const path of paths) this.edited.add(path);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const edited = [...this.edited];
      this.edited.clear();
      if (edited.length > 0 && this.options.enabled()) this.run(edited);
    }, this.options.settleMs ?? 15_000);
    this.timer.unref();
  }

  private run(paths: string[] | undefined): void {
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
