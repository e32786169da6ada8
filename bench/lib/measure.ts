/**
 * Measurement helpers shared by the benchmarks: percentiles, peak memory, and running one measurement in a child
 * process of its own (so that its peak RSS is its own, not that of whatever ran before it in the same process).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The TypeScript loader every process of the project runs on. */
export const REGISTER_TS = fileURLToPath(new URL('../../apps/cli/bin/register-ts.mjs', import.meta.url));
/** The entry point of one measurement: `node … bench/lib/part.ts NAME JSON-ARGUMENTS`. */
export const PART_SCRIPT = fileURLToPath(new URL('./part.ts', import.meta.url));

/** The value at quantile p (0–1) of an ascending array (nearest rank, rounded down), NaN when empty. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** p50, p99 and max of a list of durations (ms), rounded to 0.1 ms. */
export function latencySummary(ms: readonly number[]): {
  count: number;
  p50: number;
  p99: number;
  max: number;
} {
  const s = [...ms].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    count: s.length,
    p50: r(percentile(s, 0.5)),
    p99: r(percentile(s, 0.99)),
    max: r(s.at(-1) ?? NaN),
  };
}

/** The peak resident set of this process so far, MiB (the kernel's own high-water mark: nothing is missed). */
/** CPU seconds of this process so far, its worker threads included (user + system). */
export const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export const peakRssMiB = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

/** Bytes of a SQLite store on disk: the database and, if any is left, its write-ahead log. */
export const sqliteBytes = (path: string): number =>
  [path, `${path}-wal`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);

/** What a part prints: one JSON object on the last line of its stdout. */
export type PartResult = Record<string, unknown> & { peakRssMiB: number; wallSeconds: number };

/**
 * Runs one measurement (`bench/lib/part.ts`) in a child process and returns what it printed, with the child's
 * wall time. A child that fails is reported with its exit status and stderr, not taken for a result.
 */
export function runPart(name: string, args: Record<string, unknown> = {}): PartResult {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', REGISTER_TS, PART_SCRIPT, name, JSON.stringify(args)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{'))
    throw new Error(
      `bench part ${name} ${JSON.stringify(args)} failed (exit ${r.status ?? r.signal}):\n${r.stderr.slice(-4000)}`,
    );
  return { ...(JSON.parse(last) as PartResult), wallSeconds: +wallSeconds.toFixed(2) };
}

/** Starts a part in the background (a producer, a CPU load); the caller stops it with `stopChild`. */
export function startPart(name: string, args: Record<string, unknown> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', REGISTER_TS, PART_SCRIPT, name, JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** The last JSON line a background part printed once it exits (after SIGTERM if it is still running). */
export async function stopChild(child: ChildProcess, signal = true): Promise<Record<string, unknown> | null> {
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  if (signal && child.exitCode === null) child.kill('SIGTERM');
  await exited;
  const last = out.trim().split('\n').at(-1) ?? '';
  return last.startsWith('{') ? (JSON.parse(last) as Record<string, unknown>) : null;
}

/** The JSON line a background part printed when it ends by itself. */
export const childDone = (child: ChildProcess) => stopChild(child, false);
