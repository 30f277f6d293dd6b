/** Lines of a server's stderr kept for messages. */
const keptLines = 20;
/** A line longer than this is cut: a server may print a whole file on one line. */
const maxLineChars = 500;

/** The last lines a server wrote to stderr, bounded however much it writes. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  push(text: string): void {
    const parts = (this.partial + text).split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(-maxLineChars);
    for (const line of parts.slice(-keptLines)) {
      this.lines.push(line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line);
    }
    this.lines.splice(0, Math.max(0, this.lines.length - keptLines));
  }

  /** The last line with something on it, or null. */
  lastLine(): string | null {
    const all = [...this.lines, this.partial];
    for (let index = all.length - 1; index >= 0; index--) {
      const line = all[index]?.trim();
      if (line) return line;
    }
    return null;
  }

  /** The lines kept with something on them, oldest first. */
  text(): string {
    return [...this.lines, this.partial].filter((line) => line.trim().length > 0).join('\n');
  }
}
