/**
 * Money is an integer number of avos (1/100 MOP), never a float. Pay ratios are integers: "X para 1" is
 * { win: X, per: 1 }.
 */
export type Avos = number;

export interface Ratio {
  readonly win: number;
  readonly per: number;
}

export class MoneyError extends Error {
  override readonly name = 'MoneyError';
}

export function assertAvos(value: number, what: string): Avos {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new MoneyError(`${what} must be a whole, non-negative number of avos (1/100 MOP); got ${value}`);
  }
  return value;
}

/**
 * How a table rounds an amount that is not a whole multiple of its smallest paid unit (only percentage-based
 * jackpot awards can produce one). `unit` is in avos (1 = one avo, 10 = ten avos, 100 = one pataca).
 */
export interface RoundingPolicy {
  readonly unit: Avos;
  readonly mode: 'down' | 'half-up' | 'up';
}

export const DEFAULT_ROUNDING: RoundingPolicy = { unit: 1, mode: 'down' };

/** `amount * numerator / denominator`, rounded to the policy's unit, in exact integer arithmetic. */
export function proportion(
  amount: Avos,
  numerator: number,
  denominator: number,
  policy: RoundingPolicy,
): Avos {
  const unitsTimesDen = BigInt(amount) * BigInt(numerator);
  const den = BigInt(denominator) * BigInt(policy.unit);
  let q = unitsTimesDen / den;
  const r = unitsTimesDen % den;
  if (r !== 0n && (policy.mode === 'up' || (policy.mode === 'half-up' && 2n * r >= den))) q += 1n;
  return Number(q) * policy.unit;
}

/** Winnings of a stake paid at `ratio` (the stake itself is not included). */
export const winnings = (stake: Avos, ratio: Ratio): Avos => {
  if (stake % ratio.per !== 0)
    throw new MoneyError(
      `a stake of ${stake} avos cannot be paid ${ratio.win} to ${ratio.per} in whole avos`,
    );
  return (stake / ratio.per) * ratio.win;
};
