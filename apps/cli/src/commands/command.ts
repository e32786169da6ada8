export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(args: string[]): Promise<number>;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const out = (text: string): void =>
  void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** JSON with BigInt written as strings. */
export const json = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
