import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppEvents } from '../../../src/main/app-events';
import type { EventChannel } from '../../../src/shared/contract';

const root = join(import.meta.dirname, '../../..');

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => relative(root, join(root, folder, name)));
}

describe('typed events', () => {
  it('leaves no event payload cast to a type in the main process, the preload or the browser client', () => {
    const cast = /\bpayload\s+as\b|\bas\s+(unknown\s+as\s+)?EventPayload\b|\bas\s+EventMessage\b/;
    const files = [...sources('src/main'), ...sources('src/shared'), ...sources('src/preload')];
    files.push('src/renderer/src/browser-client.ts');
    const casting = files.filter((path) => cast.test(readFileSync(join(root, path), 'utf8')));
    expect(casting).toEqual([]);
  });

  it('tells a channel listener only its own channel, and stops when unsubscribed', () => {
    const events = new AppEvents();
    const paths: string[][] = [];
    const stop = events.on('index:changed', (change) => paths.push(change.paths));
    events.emit('context:changed', { sessionId: 's' });
    events.emit('index:changed', { paths: ['a.md'], renamed: [], latencyMs: 0 });
    stop();
    events.emit('index:changed', { paths: ['b.md'], renamed: [], latencyMs: 0 });
    expect(paths).toEqual([['a.md']]);
  });

  it('tells a late listener of every channel the latest state, then each event as it comes', () => {
    const events = new AppEvents();
    events.emit('context:changed', { sessionId: 'before' });
    events.emit('index:progress', { state: 'idle', done: 1, total: 1, etaMs: null });
    const heard: EventChannel[] = [];
    events.subscribe((channel) => heard.push(channel), { replay: true });
    events.emit('context:changed', { sessionId: 'after' });
    expect(heard).toEqual(['index:progress', 'context:changed']);
  });
});
