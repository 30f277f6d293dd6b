import { describe, expect, it } from 'vitest';
import { ChunkedReadBuffer } from '../../src/main/mcp/mcp-line-buffer';
import { StderrTail } from '../../src/main/mcp/mcp-stderr-tail';

const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;

describe('ChunkedReadBuffer', () => {
  it('reads messages split across chunks and several in one chunk, with LF or CRLF', () => {
    const buffer = new ChunkedReadBuffer(1024);
    const wire = `${ping(1)}\r\n${ping(2)}\n${ping(3)}\n`;
    buffer.append(Buffer.from(wire.slice(0, 10)));
    expect(buffer.readMessage()).toBeNull();
    buffer.append(Buffer.from(wire.slice(10, 50)));
    buffer.append(Buffer.from(wire.slice(50)));
    const ids = [buffer.readMessage(), buffer.readMessage(), buffer.readMessage(), buffer.readMessage()];
    expect(ids.map((message) => (message && 'id' in message ? message.id : null))).toEqual([1, 2, 3, null]);
  });

  it('throws on a line that is not a message, then reads the next one', () => {
    const buffer = new ChunkedReadBuffer(1024);
    buffer.append(Buffer.from(`Hello, I am a banner\n${ping(7)}\n`));
    expect(() => buffer.readMessage()).toThrow();
    expect(buffer.readMessage()).toMatchObject({ id: 7 });
  });

  it('refuses more than its limit with the SDK’s wording', () => {
    const buffer = new ChunkedReadBuffer(8);
    expect(() => buffer.append(Buffer.from('0123456789'))).toThrow(
      'ReadBuffer exceeded maximum size of 8 bytes',
    );
  });

  it('keeps multi-byte characters split between chunks whole', () => {
    const buffer = new ChunkedReadBuffer(1024);
    const bytes = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"text":"åäö"}}\n`);
    const middle = bytes.indexOf(Buffer.from('ä')) + 1;
    buffer.append(bytes.subarray(0, middle));
    buffer.append(bytes.subarray(middle));
    expect(buffer.readMessage()).toMatchObject({ result: { text: 'åäö' } });
  });
});

describe('StderrTail', () => {
  it('keeps the last 20 lines and gives the last one with text', () => {
    const tail = new StderrTail();
    for (let line = 1; line <= 30; line++) tail.push(`line ${line}\n`);
    tail.push('\n  \n');
    expect(tail.text().split('\n')).toEqual(Array.from({ length: 18 }, (_, index) => `line ${index + 13}`));
    expect(tail.lastLine()).toBe('line 30');
  });

  it('counts a line not yet ended, and cuts very long lines', () => {
    const tail = new StderrTail();
    tail.push('Error: ');
    tail.push('config missing');
    expect(tail.lastLine()).toBe('Error: config missing');
    tail.push(`\n${'y'.repeat(10_000)}\n`);
    expect(tail.lastLine()?.length).toBeLessThanOrEqual(501);
  });
});
