/**
 * The CRAPS rule set of Despacho n.º 53/2010 (Regulamento Oficial do CRAPS), in force from 2010-03-09: the bets of
 * art. 5.º and what art. 6.º pays on each, as data the engine reads. "X para Y" pays X for every Y staked, the
 * stake returned besides.
 */
import type { CrapsBetType } from '@table-audit/schemas/events';
import type { Citation } from '../citations/citation.ts';
import type { Ratio } from '../money.ts';

export const CRAPS_DIPLOMA = '53/2010';
const c = (article: number, numero?: number, alinea?: number): Citation => ({
  diploma: CRAPS_DIPLOMA,
  article,
  ...(numero === undefined ? {} : { numero }),
  ...(alinea === undefined ? {} : { alinea }),
});

/** A bet of art. 5.º: the schema's CrapsBetType without EXTRA (art. 7.º) and UNKNOWN. */
export type CrapsBetKind = Exclude<CrapsBetType, 'EXTRA' | 'UNKNOWN'>;

export type CrapsFamily = 'line' | 'odds' | 'one-throw' | 'multi-throw';

export interface CrapsBetRule {
  readonly kind: CrapsBetKind;
  readonly title: string;
  readonly family: CrapsFamily;
  /** where art. 5.º defines the bet */
  readonly defined: Citation;
  /** where art. 6.º says what it pays */
  readonly paid: Citation;
}

const rule = (
  kind: CrapsBetKind,
  title: string,
  family: CrapsFamily,
  defined: Citation,
  paid: Citation,
): CrapsBetRule => ({ kind, title, family, defined, paid });

/** Every bet of art. 5.º, with its article and the alínea of art. 6.º that pays it. */
export const CRAPS_BETS: Readonly<Record<CrapsBetKind, CrapsBetRule>> = {
  PASS_LINE: rule('PASS_LINE', 'Pass Line', 'line', c(5, 2, 1), c(6, undefined, 1)),
  PASS_ODDS: rule('PASS_ODDS', 'Pass Line odds (aposta adicional)', 'odds', c(5, 2, 2), c(6, undefined, 2)),
  DONT_PASS: rule('DONT_PASS', "Don't Pass Line", 'line', c(5, 2, 3), c(6, undefined, 3)),
  DONT_PASS_ODDS: rule('DONT_PASS_ODDS', "Don't Pass odds", 'odds', c(5, 2, 4), c(6, undefined, 4)),
  COME: rule('COME', 'Come', 'line', c(5, 2, 5), c(6, undefined, 1)),
  COME_ODDS: rule('COME_ODDS', 'Come odds', 'odds', c(5, 2, 5), c(6, undefined, 2)),
  DONT_COME: rule('DONT_COME', "Don't Come", 'line', c(5, 2, 6), c(6, undefined, 3)),
  DONT_COME_ODDS: rule('DONT_COME_ODDS', "Don't Come odds", 'odds', c(5, 2, 6), c(6, undefined, 4)),
  ANY_CRAPS: rule('ANY_CRAPS', 'Any Craps', 'one-throw', c(5, 3, 1), c(6, undefined, 5)),
  ANY_SEVEN: rule('ANY_SEVEN', 'Any 7 / Big Red / Big 7', 'one-throw', c(5, 3, 2), c(6, undefined, 6)),
  ELEVEN: rule('ELEVEN', 'Eleven', 'one-throw', c(5, 3, 3), c(6, undefined, 7)),
  ACE_DEUCE: rule('ACE_DEUCE', 'Ace-Deuce', 'one-throw', c(5, 3, 4), c(6, undefined, 8)),
  ACES: rule('ACES', 'Aces', 'one-throw', c(5, 3, 5), c(6, undefined, 9)),
  BOXCARS: rule('BOXCARS', 'Boxcars', 'one-throw', c(5, 3, 6), c(6, undefined, 10)),
  HORN: rule('HORN', 'Horn', 'one-throw', c(5, 3, 7), c(6, undefined, 11)),
  FIELD: rule('FIELD', 'Field', 'one-throw', c(5, 3, 8), c(6, undefined, 12)),
  BIG: rule('BIG', 'Big', 'one-throw', c(5, 3, 9), c(6, undefined, 13)),
  SMALL: rule('SMALL', 'Small', 'one-throw', c(5, 3, 9), c(6, undefined, 13)),
  HARD_WAY: rule('HARD_WAY', 'Hard Way', 'multi-throw', c(5, 4, 1), c(6, undefined, 14)),
  BIG_NUMBER: rule(
    'BIG_NUMBER',
    'Big 6/8, Big 5/9, Big 4/10',
    'multi-throw',
    c(5, 4, 2),
    c(6, undefined, 15),
  ),
};

export const CRAPS_BET_KINDS = Object.keys(CRAPS_BETS) as CrapsBetKind[];

/** The number each multi-throw bet may name: Hard Way (art. 5.º n.º 4 1)) and the Big numbers (2)–4)). */
export const HARD_WAY_NUMBERS: readonly number[] = [4, 6, 8, 10];
export const BIG_NUMBERS: readonly number[] = [4, 5, 6, 8, 9, 10];
export const POINT_NUMBERS: readonly number[] = [4, 5, 6, 8, 9, 10];

export interface CrapsRuleSet {
  readonly id: string;
  readonly game: 'craps';
  readonly title: string;
  readonly diploma: string;
  readonly bets: Readonly<Record<CrapsBetKind, CrapsBetRule>>;
  /** art. 6.º: pays by sum, for the bets whose pay depends on it */
  readonly passOdds: Readonly<Record<number, Ratio>>;
  readonly dontOdds: Readonly<Record<number, Ratio>>;
  readonly hardWay: Readonly<Record<number, Ratio>>;
  readonly bigNumber: Readonly<Record<number, Ratio>>;
  readonly horn: { readonly onTwoOrTwelve: Ratio; readonly onThreeOrEleven: Ratio };
  readonly oneThrow: Readonly<Partial<Record<CrapsBetKind, Ratio>>>;
  /** the Field on 2; on 12 the table's configuration (2:1 or 3:1) decides */
  readonly fieldOnTwo: Ratio;
  readonly fieldOnTwelveChoices: readonly number[];
  /** alternative readings selected (readings.ts keys: 'C1', 'C2', 'C3', 'C5'); absent or empty: the register's readings */
  readonly alternatives?: readonly string[];
}

const crapsVariants = new Map<string, CrapsRuleSet>();

/** The CRAPS keys among a replay's alternatives (the other games' keys are ignored). */
const CRAPS_READING_KEYS: readonly string[] = ['C1', 'C2', 'C3', 'C5'];

/**
 * The Horn under the alternative reading of C2: art. 6.º 11)'s ratios on the winning unit alone (a quarter of the
 * stake), the other three units lost besides. As a ratio of the whole stake: on 2 or 12, ¼ × 27/4 − ¾ = 15/16;
 * on 3 or 11, ¼ × 3 − ¾ = 0, the stake neither won nor lost (the engine settles it PUSH). One ratio on the whole
 * stake, rounded once as the table rounds, is the same sum as the four units settled apart, without splitting an
 * amount that is not a multiple of four avos.
 */
export const HORN_ON_WINNING_UNIT = Object.freeze({
  onTwoOrTwelve: Object.freeze({ win: 15, per: 16 }),
  onThreeOrEleven: Object.freeze({ win: 0, per: 1 }),
});

/**
 * The rule set with the CRAPS alternative readings among `alternatives` (C1, C2, C3, C5); the same object for
 * none. C2 replaces the Horn's ratios (HORN_ON_WINNING_UNIT); C1 is read by the shooter-change checks.
 */
export function crapsReadings(rules: CrapsRuleSet, alternatives: readonly string[]): CrapsRuleSet {
  const keys = alternatives.filter((k) => CRAPS_READING_KEYS.includes(k)).sort();
  if (!keys.length) return rules;
  const key = `${rules.id}|${keys.join(',')}`;
  let v = crapsVariants.get(key);
  if (!v)
    crapsVariants.set(
      key,
      (v = Object.freeze({
        ...rules,
        ...(keys.includes('C2') ? { horn: HORN_ON_WINNING_UNIT } : {}),
        alternatives: Object.freeze(keys),
      })),
    );
  return v;
}

const r = (win: number, per: number): Ratio => ({ win, per });

export const CRAPS_2010: CrapsRuleSet = {
  id: 'craps-2010',
  game: 'craps',
  title: 'CRAPS (Despacho 53/2010)',
  diploma: CRAPS_DIPLOMA,
  bets: CRAPS_BETS,
  passOdds: { 4: r(2, 1), 10: r(2, 1), 5: r(3, 2), 9: r(3, 2), 6: r(6, 5), 8: r(6, 5) },
  dontOdds: { 4: r(1, 2), 10: r(1, 2), 5: r(2, 3), 9: r(2, 3), 6: r(5, 6), 8: r(5, 6) },
  hardWay: { 4: r(7, 1), 10: r(7, 1), 6: r(9, 1), 8: r(9, 1) },
  bigNumber: { 6: r(7, 6), 8: r(7, 6), 5: r(7, 5), 9: r(7, 5), 4: r(9, 5), 10: r(9, 5) },
  // interpretation C2: the ratios apply to the whole Horn stake, net of the three losing units
  horn: { onTwoOrTwelve: r(27, 4), onThreeOrEleven: r(3, 1) },
  oneThrow: {
    ANY_CRAPS: r(7, 1),
    ANY_SEVEN: r(4, 1),
    ELEVEN: r(15, 1),
    ACE_DEUCE: r(15, 1),
    ACES: r(30, 1),
    BOXCARS: r(30, 1),
    BIG: r(1, 1),
    SMALL: r(1, 1),
  },
  fieldOnTwo: r(2, 1),
  fieldOnTwelveChoices: [2, 3],
};

/** The provisions the checks cite, by name. */
export const CRAPS_CITES = {
  shooterMinimum: c(2, 1),
  throwVoid: c(3, 2),
  /**
   * the re-use of a die that left the table, cited as the OCR numbers it ("4."); by its wording it may be n.º 3 of
   * the printed text, the no-rolling case "3." being alínea 3) of n.º 2 (interpretation C4)
   */
  dieReuse: c(3, 4),
  shooterChange: c(4),
  shooterStopped: c(4, undefined, 1),
  sevenOut: c(4, undefined, 2),
  comeAfterPoint: c(5, 2, 5),
  dontComeAfterPoint: c(5, 2, 6),
  anyMoment: c(5, 5),
  multipleOfMinimum: c(5, 6),
  payouts: c(6),
  extraBets: c(7, 1),
} as const;
