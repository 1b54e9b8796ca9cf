// CLI: progress of a long import on stderr — a bar redrawn in place on a terminal, plain lines otherwise.

export interface ProgressState {
  readonly statements: number;
  /** Bytes read of the source, and its size when known (a file, not stdin). */
  readonly bytes: number;
  readonly totalBytes: number | undefined;
  readonly elapsedMs: number;
}

const BAR_WIDTH = 30;

export function rate(s: ProgressState): number {
  return s.elapsedMs > 0 ? Math.round((s.statements * 1000) / s.elapsedMs) : 0;
}

/** `[#########---------]  45%  12,345 statements  1,234/s` (no bar nor percentage when the size is unknown). */
export function progressBar(s: ProgressState): string {
  const counts = `${s.statements.toLocaleString("en-US")} statements  ${rate(s).toLocaleString("en-US")}/s`;
  if (!s.totalBytes) return counts;
  const done = Math.min(1, s.bytes / s.totalBytes);
  const filled = Math.round(done * BAR_WIDTH);
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${String(Math.floor(done * 100)).padStart(3)}%  ${counts}`;
}

/** A plain progress line (no terminal): statements so far and the rate. */
export function progressLine(s: ProgressState): string {
  return `import: ${s.statements.toLocaleString("en-US")} statements (${rate(s).toLocaleString("en-US")}/s)`;
}

/** Reports progress: on a terminal redraws the bar at most every 100 ms; otherwise one line every `every` statements. */
export class Progress {
  private lastDraw = 0;
  private lastLine = 0;
  private drawn = false;
  private readonly started = Date.now();

  constructor(
    private readonly out: { write(text: string): unknown; isTTY?: boolean },
    private readonly totalBytes: number | undefined,
    private readonly every = 10_000,
  ) {}

  private state(statements: number, bytes: number): ProgressState {
    return { statements, bytes, totalBytes: this.totalBytes, elapsedMs: Date.now() - this.started };
  }

  update(statements: number, bytes: number): void {
    if (this.out.isTTY) {
      const now = Date.now();
      if (now - this.lastDraw < 100) return;
      this.lastDraw = now;
      this.drawn = true;
      this.out.write(`\r${progressBar(this.state(statements, bytes))}\x1b[K`);
    } else if (statements - this.lastLine >= this.every) {
      this.lastLine = statements - (statements % this.every);
      this.out.write(`${progressLine(this.state(statements, bytes))}\n`);
    }
  }

  /** Clears the bar (before an error or the summary). */
  clear(): void {
    if (this.drawn) this.out.write("\r\x1b[K");
    this.drawn = false;
  }

  summary(statements: number): string {
    const s = this.state(statements, 0);
    return `imported ${statements.toLocaleString("en-US")} statements in ${(s.elapsedMs / 1000).toFixed(1)} s (${rate(s).toLocaleString("en-US")}/s)`;
  }
}
