// A fixed single-threaded workload, timed. This machine's speed has varied by up to 2× within minutes (a
// shared virtual machine); printed before and after the sections, it tells a slow phase from a regression.

/** Milliseconds for a fixed mix of string, regex, Map, JSON and sort work; the fastest of three runs. */
export function machineCheckMs(): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    workload();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

function workload(): number {
  const lines: string[] = [];
  for (let index = 0; index < 120_000; index++) {
    lines.push(
      `Line ${index} links [[Note ${index % 997}#Heading ${index % 13}]] and #tag/${index % 31} here.`,
    );
  }
  const text = lines.join('\n');
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/\[\[([^\]#|]+)(?:#([^\]|]+))?\]\]/g)) {
    const key = match[1]!.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows = [...counts].map(([key, count]) => ({ key, count, text: text.slice(count, count + 200) }));
  const parsed = JSON.parse(JSON.stringify(rows)) as typeof rows;
  parsed.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  return text.replace(/#(\w+)\/(\d+)/g, '$2$1').length + parsed.length;
}
