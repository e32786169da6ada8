/** Exact rational numbers for the math report: BigInt numerator and positive denominator, always reduced. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
};

export function fraction(num: bigint | number, den: bigint | number = 1n): Fraction {
  let n = BigInt(num);
  let d = BigInt(den);
  if (d === 0n) throw new Error('fraction with a zero denominator');
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { num: n / g, den: d / g };
}

export const add = (a: Fraction, b: Fraction): Fraction =>
  fraction(a.num * b.den + b.num * a.den, a.den * b.den);
export const sub = (a: Fraction, b: Fraction): Fraction =>
  fraction(a.num * b.den - b.num * a.den, a.den * b.den);
export const mul = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.num, a.den * b.den);
export const div = (a: Fraction, b: Fraction): Fraction => fraction(a.num * b.den, a.den * b.num);
export const neg = (a: Fraction): Fraction => ({ num: -a.num, den: a.den });
export const compare = (a: Fraction, b: Fraction): number => {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
};

/** Decimal expansion, truncated toward zero to `digits` places (exact digits, no float rounding). */
export function toDecimal(f: Fraction, digits = 10): string {
  const negative = f.num < 0n;
  const n = negative ? -f.num : f.num;
  const scaled = (n * 10n ** BigInt(digits)) / f.den;
  const s = scaled.toString().padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

export const toJson = (f: Fraction, digits = 10): { fraction: string; decimal: string } => ({
  fraction: `${f.num}/${f.den}`,
  decimal: toDecimal(f, digits),
});
