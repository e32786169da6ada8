/**
 * The 13 Cards rule set: Regulamento Oficial do Jogo de 13 Cartas, annexed to Portaria n.º 51/89/M (Boletim
 * Oficial n.º 12, 1989-03-20). What the law leaves to the table (interpretation T2) is configuration here.
 */
export const THIRTEEN_CARDS_1989_DIPLOMA = 'Portaria 51/89/M';

/**
 * Art. 11.º, read under T2: "the player may bet in terms of 1, 2 or 3 points; a winner is paid half the stake,
 * less a 2% commission for the House". Both the meaning of the units and the commission's base are the table's.
 */
export interface ThirteenPayout {
  /**
   * 'stake-per-point': the bet's amount is a stake per point and the sum at risk is amount × units (1, 2 or 3);
   * 'units-recorded': the amount is the whole sum at risk and the units are only recorded.
   */
  readonly units: 'stake-per-point' | 'units-recorded';
  /** 'win': the commission is taken from the half-stake won; 'stake': from the sum at risk */
  readonly commissionBase: 'win' | 'stake';
  /** the House's commission in percent (art. 11.º: 2) */
  readonly commissionPercent: number;
}

export interface ThirteenRuleSet {
  readonly id: 'thirteen-cards-1989';
  readonly game: 'thirteen-cards';
  readonly title: string;
  readonly diploma: string;
  /** art. 2.º d): minutes each place has to arrange after the banker shows */
  readonly arrangeMinutes: number;
  /** art. 2.º a): the fewest cards a cut may take */
  readonly minCutCards: number;
  readonly payout: ThirteenPayout;
  /**
   * alternative readings selected (readings.ts keys: 'T1', 'T1:2', 'T2', 'T3', 'T4', 'T5', 'T6'); absent or empty:
   * the register's readings
   */
  readonly alternatives?: readonly string[];
}

/** The 13 Cards keys among a replay's alternatives (the other games' keys are ignored). */
export const THIRTEEN_READING_KEYS: readonly string[] = Object.freeze([
  'T1',
  'T1:2',
  'T2',
  'T3',
  'T4',
  'T5',
  'T6',
]);

/**
 * The rule set with the 13 Cards alternative readings among `alternatives`; the same object for none. T2's
 * alternative overrides the table's payout configuration (art. 11.º): the units multiply the payment by the
 * points difference, and the commission is taken from the stake.
 */
export function thirteenReadings(rules: ThirteenRuleSet, alternatives: readonly string[]): ThirteenRuleSet {
  if (!alternatives.length) return rules;
  const keys = alternatives.filter((k) => THIRTEEN_READING_KEYS.includes(k)).sort();
  if (!keys.length) return rules;
  return Object.freeze({
    ...rules,
    payout: keys.includes('T2') ? { ...rules.payout, commissionBase: 'stake' as const } : rules.payout,
    alternatives: Object.freeze(keys),
  });
}

/** The default table configuration: T2's reading (units recorded, commission on the win). */
export const DEFAULT_THIRTEEN_PAYOUT: ThirteenPayout = Object.freeze({
  units: 'units-recorded',
  commissionBase: 'win',
  commissionPercent: 2,
});

export const THIRTEEN_CARDS_1989: ThirteenRuleSet = Object.freeze({
  id: 'thirteen-cards-1989',
  game: 'thirteen-cards',
  title: 'Jogo de 13 Cartas (Portaria n.º 51/89/M)',
  diploma: THIRTEEN_CARDS_1989_DIPLOMA,
  arrangeMinutes: 5,
  minCutCards: 10,
  payout: DEFAULT_THIRTEEN_PAYOUT,
});
