import { randomUUID } from 'node:crypto';
import type { AttachmentResult, AttachmentText } from '../../shared/attachment-domain';
import type { PreparedAttachment } from '../../shared/context-items-domain';
import { AppError } from '../app-error';
import type { AttachmentReader } from '../attachments/attachment-reader';
import { attachmentText } from './attachment-text';

/** How the intake takes images (images/image-intake.ts). */
export interface ImageIntake {
  isImage(name: string, bytes: Uint8Array): boolean;
  /** The image read and kept, or a refusal in words (also when the model cannot see images). */
  read(name: string, bytes: Uint8Array): Promise<AttachmentResult>;
  /** Throws an AppError when a message may not carry `count` images to the model. */
  check(count: number): Promise<void>;
}

/** Files read and counted but not sent yet are let go after this long. */
const keepMs = 60 * 60_000;
/** At most this many wait at once (a composer holds a few). */
const keepCount = 50;

export interface AttachmentIntakeOptions {
  reader: AttachmentReader;
  /** A text's tokens as the model's provider counts them (calibrated). */
  tokens: (text: string) => number;
  /** The most one file may take in a request of the open chat's model, and that model's window. */
  room: () => Promise<{ tokens: number; window: number }>;
  /** Images, for models that see them (images/); without it an image is refused like any binary file. */
  images?: ImageIntake;
  now?: () => number;
}

interface Waiting {
  file: AttachmentText;
  tokens: number;
  at: number;
}

/**
 * Files dropped or pasted on the composer: read (in the attachment worker), counted in the model's
 * tokens, and refused with a plain sentence when they cannot be read or do not fit; kept until the
 * message they go with is sent.
 */
export class AttachmentIntake {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly options: AttachmentIntakeOptions) {}

  async prepare(name: string, bytes: Uint8Array, signal?: AbortSignal): Promise<PreparedAttachment> {
    const images = this.options.images;
    const result =
      images?.isImage(name, bytes) === true
        ? await images.read(name, bytes)
        : await this.options.reader.read(name, bytes, signal);
    if (!result.ok) {
      throw new AppError(result.code === 'too-large' ? 'too-large' : 'unsupported', result.message);
    }
    return this.admit(result);
  }

  /** Counts a text read elsewhere (a web page) and keeps it for the next message, or refuses it in words. */
  async admit(result: AttachmentText): Promise<PreparedAttachment> {
    const { name } = result;
    const tokens = this.options.tokens(attachmentText({ ...result, id: 0 }));
    const room = await this.options.room();
    if (tokens > room.tokens) {
      const count = (value: number) => value.toLocaleString('en-US');
      throw new AppError(
        'too-large',
        `“${name}” is about ${count(tokens)} tokens; ${result.url ? 'one page' : 'one file'} may take at most ${count(room.tokens)} of this model's ${count(room.window)}-token window. Attach a shorter file or a part of it, or choose a model with a larger window.`,
      );
    }
    this.forgetOld();
    const token = randomUUID();
    this.waiting.set(token, { file: result, tokens, at: this.now() });
    const { kind, pages, bytes: size, truncated } = result;
    const url = result.url ?? null;
    return { token, name, kind, pages, bytes: size, tokens, truncated, url, document: null };
  }

  /**
   * Throws when a token is not known (any more), or the files hold more images than a message may, or
   * images the model cannot see: checked before a message is stored.
   */
  async check(tokens: readonly string[]): Promise<void> {
    for (const token of tokens) {
      if (!this.waiting.has(token))
        throw new AppError('not-found', 'An attached file is not ready any more: attach it again.');
    }
    const kinds = tokens.map((token) => this.waiting.get(token)!.file.kind);
    await this.options.images?.check(kinds.filter((kind) => kind === 'image').length);
  }

  /** The files of a message being sent, with their counts, still waiting (the meter counts them). */
  peek(tokens: readonly string[]): { file: AttachmentText; tokens: number }[] {
    return tokens.flatMap((token) => {
      const entry = this.waiting.get(token);
      return entry ? [{ file: entry.file, tokens: entry.tokens }] : [];
    });
  }

  /** The files of a message being sent, handed over once; a token not known any more is an error. */
  take(tokens: readonly string[]): { file: AttachmentText; tokens: number }[] {
    const files = tokens.map((token) => {
      const waiting = this.waiting.get(token);
      if (!waiting)
        throw new AppError('not-found', 'An attached file is not ready any more: attach it again.');
      return waiting;
    });
    for (const token of tokens) this.waiting.delete(token);
    return files.map(({ file, tokens: count }) => ({ file, tokens: count }));
  }

  private forgetOld(): void {
    const now = this.now();
    for (const [token, entry] of this.waiting) if (now - entry.at > keepMs) this.waiting.delete(token);
    while (this.waiting.size >= keepCount) this.waiting.delete(this.waiting.keys().next().value!);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
