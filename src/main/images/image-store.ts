import { createHash } from 'node:crypto';
import type { SqliteDatabase } from '../storage/database';
import type { NormalizedImage } from './image-normalize';

interface Row {
  mediaType: NormalizedImage['mediaType'];
  width: number;
  height: number;
  data: Buffer;
}

/**
 * Images a message or a note gave the model, kept by content hash in the app database: a chat's history
 * names each image by its hash (see image-marker.ts), so an answer given later sends the same bytes.
 */
export class ImageStore {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      insert: db.prepare<[string, string, number, number, Buffer]>(
        `INSERT INTO images (hash, media_type, width, height, data) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(hash) DO NOTHING`,
      ),
      get: db.prepare<[string], Row>(
        'SELECT media_type AS mediaType, width, height, data FROM images WHERE hash = ?',
      ),
    };
  }

  /** Keeps `image` and returns its hash (the same image kept twice is one row). */
  put(image: NormalizedImage): string {
    const hash = createHash('sha256').update(image.data).digest('hex');
    this.statements.insert.run(hash, image.mediaType, image.width, image.height, image.data);
    return hash;
  }

  /** The image of `hash`; null when none is kept. */
  get(hash: string): NormalizedImage | null {
    return this.statements.get.get(hash) ?? null;
  }
}
