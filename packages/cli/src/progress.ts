/**
 * Live progress on a terminal's stderr: one status line ("running bash 3.2 s") kept at the bottom,
 * with output lines printed above it. Only for terminals: pipes and log files get none of it.
 */

/** How long a state lasts before the status line shows it: quick steps do not flicker. */
export const PROGRESS_DELAY_MS = 500;
/** How often the elapsed time on the status line is redrawn. */
export const PROGRESS_REDRAW_MS = 100;

/** Erases the current terminal line and returns to its start (ANSI "erase in line"). */
const CLEAR_LINE = "\r\x1b[2K";

/** A status line at the bottom of a terminal, and lines printed above it. */
export class Progress {
  private label: string | undefined;
  private detail = "";
  private since = 0;
  private drawn = false;
  private readonly follower = new TailFollower();
  private tail: string | undefined;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly write: (text: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.timer = setInterval(() => this.redraw(), PROGRESS_REDRAW_MS);
    this.timer.unref();
  }

  /** What is being waited for (`undefined`: nothing, the line disappears). Restarts the clock when it changes. */
  status(label: string | undefined): void {
    if (label === this.label) return;
    this.label = label;
    this.detail = "";
    this.since = this.now();
    if (label === undefined) this.erase();
    else this.redraw();
  }

  /** A short note after the elapsed time (e.g. the last line of output), redrawn with the line. */
  note(text: string): void {
    this.detail = text;
  }

  /** True once the current state has lasted {@link PROGRESS_DELAY_MS}. */
  get showing(): boolean {
    return this.label !== undefined && this.now() - this.since >= PROGRESS_DELAY_MS;
  }

  /**
   * The latest tail of a running command's output: its new whole lines are printed above the
   * status line once the status shows (the lines from before that moment too).
   */
  output(tail: string): void {
    this.tail = tail;
    this.flush();
  }

  /** Prints whole lines above the status line. */
  print(lines: string[]): void {
    if (lines.length === 0) {
      this.redraw();
      return;
    }
    this.erase();
    this.write(lines.map((line) => `${line}\n`).join(""));
    this.redraw();
  }

  /**
   * Runs `write` (output to another stream on the same terminal, such as stdout) with the status
   * line erased first and drawn again after, so the two never share a line.
   */
  around(write: () => void): void {
    this.erase();
    write();
    this.redraw();
  }

  /** Erases the line and stops the clock. */
  stop(): void {
    clearInterval(this.timer);
    this.label = undefined;
    this.erase();
  }

  private flush(): void {
    if (this.tail === undefined || !this.showing) return;
    const lines = this.follower.next(this.tail);
    this.tail = undefined;
    this.print(lines);
  }

  /** Draws the status line with the current elapsed time (the timer calls this). */
  redraw(): void {
    if (!this.showing) return;
    if (this.tail !== undefined) {
      this.flush();
      return;
    }
    const seconds = ((this.now() - this.since) / 1000).toFixed(1);
    const columns = process.stderr.columns || 80;
    const line = `${this.label} ${seconds} s${this.detail ? ` · ${this.detail}` : ""}`;
    this.write(`${CLEAR_LINE}${line.slice(0, columns - 1)}`);
    this.drawn = true;
  }

  private erase(): void {
    if (!this.drawn) return;
    this.write(CLEAR_LINE);
    this.drawn = false;
  }
}

/**
 * Follows the tails a running command reports (each the last lines of its output so far) and
 * returns the whole lines that are new since the previous tail. The newest lines of the old tail
 * are found at the start of the new one; when nothing overlaps (more output than a tail between
 * two reports) the whole new tail is new. A last line without its newline waits for the next tail.
 */
export class TailFollower {
  private seen: string[] = [];

  /** The whole lines in `tail` not returned before. */
  next(tail: string): string[] {
    const lines = tail.split("\n");
    lines.pop();
    const fresh = lines.slice(overlap(this.seen, lines));
    this.seen = lines;
    return fresh;
  }
}

/** The largest k such that the last k entries of `before` equal the first k of `after`. */
function overlap(before: string[], after: string[]): number {
  for (let k = Math.min(before.length, after.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) same = before[before.length - k + i] === after[i];
    if (same) return k;
  }
  return 0;
}
