/**
 * Progress of a long step, on stderr (stdout keeps the results): on a terminal a bar redrawn in place; otherwise
 * (a pipe, a log, CI) a plain line every few seconds. Nothing is shown for a step that ends within its first second.
 */
export interface ProgressOptions {
  /** what is counted: "events", "rounds"… */
  readonly unit: string;
  /** default process.stderr */
  readonly stream?: NodeJS.WriteStream | { isTTY?: boolean; write(text: string): unknown };
  /** default Date.now (tests give their own clock) */
  readonly now?: () => number;
  /** a plain line at most this often when not on a terminal, in ms (default 5000) */
  readonly lineEveryMs?: number;
  /** nothing is shown before this many ms (default 1000) */
  readonly quietMs?: number;
}

export interface Progress {
  /** `done` of `total` so far; a total of null: the size is not known ahead */
  update(done: number, total?: number | null, note?: string): void;
  /** ends the bar (the terminal's line is cleared; the summary line is the caller's) */
  end(): void;
}

const WIDTH = 30;
const n = (x: number): string => Math.round(x).toLocaleString('en-US');

export function progress(label: string, total: number | null, o: ProgressOptions): Progress {
  const stream = o.stream ?? process.stderr;
  const now = o.now ?? Date.now;
  const tty = stream.isTTY === true;
  const started = now();
  const quiet = o.quietMs ?? 1000;
  const every = tty ? 100 : (o.lineEveryMs ?? 5000);
  let last = -Infinity;
  let drawn = false;
  let size = total;
  const line = (done: number, note: string | undefined): string => {
    const seconds = (now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const of = size !== null && size > 0 ? Math.min(1, done / size) : null;
    const eta = of !== null && rate > 0 && size !== null ? ` ETA ${Math.ceil((size - done) / rate)} s` : '';
    const counts = size === null ? `${n(done)} ${o.unit}` : `${n(done)}/${n(size)} ${o.unit}`;
    const extra = note ? `, ${note}` : '';
    if (!tty)
      return `   ${label}: ${counts}${of === null ? '' : ` (${Math.floor(of * 100)}%)`}${extra}, ${seconds.toFixed(0)} s\n`;
    const bar =
      of === null
        ? ''
        : `[${'#'.repeat(Math.round(of * WIDTH)).padEnd(WIDTH, '.')}] ${String(Math.floor(of * 100)).padStart(3)}% `;
    return `\r\x1b[K   ${label} ${bar}${counts}, ${n(rate)}/s${eta}${extra}`;
  };
  return {
    update(done, t, note) {
      if (t !== undefined) size = t;
      const at = now();
      if (at - started < quiet || at - last < every) return;
      last = at;
      drawn = true;
      stream.write(line(done, note));
    },
    end() {
      if (drawn && tty) stream.write('\r\x1b[K');
    },
  };
}
