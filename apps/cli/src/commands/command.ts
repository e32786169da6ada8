import { once } from 'node:events';

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(args: string[]): Promise<number>;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const toStdout = (text: string): void => void process.stdout.write(text);
let write = toStdout;

/** Where out() writes (stdout); a test swaps it in-process, where stdout carries the test runner's own reports. */
export function redirectOutput(to: (text: string) => void): (text: string) => void {
  const before = write;
  write = to;
  return before;
}

export const out = (text: string): void => write(text.endsWith('\n') ? text : `${text}\n`);

/** Waits while a slow reader (a pipe) has stdout's buffer full, so a long output is never held in memory. */
export async function drained(): Promise<void> {
  if (write === toStdout && process.stdout.writableNeedDrain) await once(process.stdout, 'drain');
}

/** JSON with BigInt written as strings. */
export const json = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
