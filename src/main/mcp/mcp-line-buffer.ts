import { deserializeMessage, ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const newline = 0x0a;

/**
 * The SDK's stdio read buffer, reading the same newline-delimited messages, without its quadratic cost:
 * the SDK's copies all it holds and searches it again on every chunk, which for a 10 MB reply is seconds
 * of main-process time. This one keeps the chunks and searches only those not searched yet.
 */
export class ChunkedReadBuffer extends ReadBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Leading chunks already known to hold no newline. */
  private searched = 0;

  constructor(private readonly maxBytes: number) {
    super({ maxBufferSize: maxBytes });
  }

  override append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBytes) {
      this.clear();
      // The SDK's wording, which the connection recognises.
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  override readMessage(): JSONRPCMessage | null {
    for (let index = this.searched; index < this.chunks.length; index++) {
      const chunk = this.chunks[index];
      const end = chunk ? chunk.indexOf(newline) : -1;
      if (!chunk || end === -1) {
        this.searched = index + 1;
        continue;
      }
      const line = Buffer.concat([...this.chunks.slice(0, index), chunk.subarray(0, end)]);
      const rest = chunk.subarray(end + 1);
      this.chunks = rest.length ? [rest, ...this.chunks.slice(index + 1)] : this.chunks.slice(index + 1);
      this.size -= line.length + 1;
      this.searched = 0;
      return deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
    }
    return null;
  }

  override clear(): void {
    this.chunks = [];
    this.size = 0;
    this.searched = 0;
  }
}
