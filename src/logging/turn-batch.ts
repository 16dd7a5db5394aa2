// Log lines on their way to stderr (D5), gathered per turn of the event loop. At the default
// LOG_LEVEL=info every tool call writes its audit line to the log (D35), and a write to stderr per
// line cost more than making the line (bench/README.md, "The log at info"): the lines of one turn
// now leave together, in the order they were logged, with one write at the end of that turn, as the
// audit file's lines do (audit.ts). No line waits longer than its turn, and what waits when the
// process exits is written first.

/** Takes one line (newline included); `flush` writes what waits now. */
export interface TurnBatch {
  (line: string): void;
  flush(): void;
}

export function turnBatch(write: (text: string) => void): TurnBatch {
  let waiting: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? waiting[0] : waiting.join('');
    waiting = [];
    write(text);
  };
  const batch = ((line: string) => {
    waiting.push(line);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  }) as TurnBatch;
  batch.flush = flush;
  return batch;
}
