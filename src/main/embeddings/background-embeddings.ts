import type { AppEvents } from '../app-events';
import type { EmbeddingService } from './embedding-service';

export interface BackgroundEmbeddingsOptions {
  service: EmbeddingService;
  events: AppEvents;
  /** Whether an embedding model is configured and turned on. */
  enabled: () => boolean;
  /** Quiet time after the index changed before what changed is embedded (default 2 s). */
  settleMs?: number;
  warn?: (message: string) => void;
}

/**
 * Keeps the vectors current without being asked: once a vault is opened and indexed, and once edits
 * settle. A run costs a query when nothing changed, so runs are not narrowed to the edited notes.
 */
export class BackgroundEmbeddings {
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastWarning: string | null = null;

  constructor(private readonly options: BackgroundEmbeddingsOptions) {}

  start(): void {
    const { events } = this.options;
    const stops = [
      // A run waits for the index pass an opening starts; every pass reports `idle` at its end, edits too.
      events.on('vault:changed', ({ reason }) => {
        if (reason === 'opened' || reason === 'returned') this.runNow();
      }),
      events.on('index:changed', () => this.runSoon()),
    ];
    this.unsubscribe = () => stops.forEach((stop) => stop());
  }

  /** The settings changed: stop what runs and, when still enabled, start over with the new model. */
  restart(): void {
    this.options.service.cancel();
    this.runNow();
  }

  stop(): void {
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private runSoon(): void {
    if (!this.options.enabled()) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runNow();
    }, this.options.settleMs ?? 2_000);
    this.timer.unref();
  }

  private runNow(): void {
    if (!this.options.enabled()) return;
    const warn = this.options.warn ?? console.warn;
    this.options.service.run().then(
      (report) => {
        // An unreachable server fails every run the same way: said once, until it changes.
        if (report.error !== null && report.error !== this.lastWarning) warn(`Embeddings: ${report.error}`);
        this.lastWarning = report.error;
      },
      (error: Error) => warn(`Embeddings: ${error.message}`),
    );
  }
}
