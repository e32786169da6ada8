/**
 * Alternative readings a replay can select instead of the register's chosen ones (interpretations.ts), by id:
 * the what-if replay (`table-audit replay --what-if J2=ALT …`) and `replay ROUND --alternative ID`. Each is a
 * small pure variation in the rules (a rule set variant the settlement reads, or a filter over a unit's
 * findings), selected by a key: the interpretation id for its first alternative, `ID:2` for a second one where
 * the register names two. Interpretations with no selectable alternative say why in `WHAT_IF` (interpretations.ts).
 */
import type { Finding } from './findings.ts';
import { INTERPRETATIONS, WHAT_IF } from './interpretations.ts';

export interface AlternativeReading {
  /** 'J2', or 'J3:2' for the second alternative the register names */
  readonly key: string;
  readonly id: string;
  /** 1: the register's first alternative; 2: its second */
  readonly variant: 1 | 2;
  readonly game: 'f3cp' | 'craps' | 'thirteen-cards' | 'mahjong';
  /** where the variation acts: the settlement (what is owed), or the findings raised */
  readonly acts: 'settlement' | 'findings';
  /** what the replay does differently, in one sentence */
  readonly effect: string;
}

const r = (
  id: string,
  variant: 1 | 2,
  game: AlternativeReading['game'],
  acts: AlternativeReading['acts'],
  effect: string,
): AlternativeReading =>
  Object.freeze({ key: variant === 1 ? id : `${id}:${variant}`, id, variant, game, acts, effect });

/** Every selectable alternative reading, in register order. */
export const ALTERNATIVE_READINGS: readonly AlternativeReading[] = Object.freeze([
  r(
    'J1',
    1,
    'f3cp',
    'settlement',
    'a folded hand loses its Pair Plus bet instead of having it settled on its cards',
  ),
  r(
    'J2',
    1,
    'f3cp',
    'settlement',
    'equal hands against a qualifying banker lose Ante and Play instead of pushing',
  ),
  r('J3', 1, 'f3cp', 'settlement', 'the Ante bonus is paid only to hands that beat a qualifying banker'),
  r('J3', 2, 'f3cp', 'settlement', 'the Ante bonus is paid to folded hands too'),
  r(
    'J4',
    1,
    'f3cp',
    'settlement',
    'every Royal/Straight Flush share is computed on the pool as it stood before the round’s first payment',
  ),
  r(
    'J4',
    2,
    'f3cp',
    'settlement',
    'the pool is reduced by the amount actually paid, not by the percentage share',
  ),
  r('J5', 1, 'f3cp', 'settlement', 'a winning Progressive stake is returned with the award'),
  r('J6', 1, 'f3cp', 'settlement', 'the 10% Straight Flush share is rounded half up to the avo'),
  r(
    'J7',
    1,
    'f3cp',
    'settlement',
    '3-2-A counts its Ace as top card: it beats K-Q-J and loses only to A-K-Q among straights',
  ),
  r(
    'J8',
    1,
    'f3cp',
    'settlement',
    'no five-card Straight exists: a Six Card Bonus whose best hand is a Straight loses',
  ),
  r(
    'J9',
    1,
    'f3cp',
    'settlement',
    'a f3cp-2025a round with Six Card Bonus or Progressive bets is refused (not derived)',
  ),
  r(
    'J10',
    1,
    'f3cp',
    'settlement',
    'with a Royal and a Straight Flush, only the Straight Flush moves ahead of the Royal; other winners keep seat order',
  ),
  r(
    'J11',
    1,
    'f3cp',
    'settlement',
    'the banker qualifies only when holding a card of Q or higher (2-2-5 and 2-3-4 do not)',
  ),
  r(
    'J12',
    1,
    'f3cp',
    'findings',
    'a bet is confined to the hand the player bets on (PT), not to the seat the player occupies (ZH): a player seated at one seat who bets on a single other, unoccupied, hand raises no F3CP.BET.OTHER_HAND',
  ),
  r(
    'J13',
    1,
    'f3cp',
    'findings',
    "a player seated at another seat of the table who holds or sees a hand's cards raises no F3CP.CONDUCT.NON_SEATED_HANDLING (PT: any seated player)",
  ),
  r(
    'J15',
    1,
    'f3cp',
    'findings',
    'a round whose shuffler fails during the deal is paused, reshuffled and resumed: dealing on after a ShuffleCompleted and settling it is no F3CP.IRREG.SHUFFLER_NOT_SUSPENDED; the resumed deal (after a ShuffleCompleted) must be complete, and its Progressive bets move to the next round unsettled (art. 17.º n.º 3)',
  ),
  r(
    'J17',
    1,
    'f3cp',
    'findings',
    'community cards dealt in a round with no Progressive bet break art. 11.º n.º 3 (F3CP.DEAL.COMMUNITY) and void the round (art. 17.º n.º 1 1)): settling it is F3CP.IRREG.NOT_VOIDED',
  ),
  r(
    'J18',
    1,
    'f3cp',
    'findings',
    'a card dealt face up is no exposure under art. 17.º n.º 1 2)-3): a round with one is settled (only F3CP.DEAL.FACE_UP), and voiding it is F3CP.IRREG.WRONGLY_VOIDED',
  ),
  r('J19', 1, 'f3cp', 'findings', 'a breach the table handled by voiding the round raises no finding'),
  r(
    'J20',
    1,
    'f3cp',
    'findings',
    'revealing the community cards with no Progressive bet is no breach (F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS not raised)',
  ),
  r(
    'J21',
    1,
    'f3cp',
    'findings',
    'a player who leaves the seat and takes another seat of the same table before the round ends has not left the table: no F3CP.CONDUCT.LEFT_SEAT',
  ),
  r(
    'H1',
    1,
    'f3cp',
    'settlement',
    'A-K-Q of one suit is a Flush, not a Straight Flush (art. 8.º 1) literally: K-Q-J is the highest straight flush)',
  ),
  r(
    'H2',
    1,
    'f3cp',
    'settlement',
    'equal hands against a qualifying croupier lose Ante and Play instead of pushing',
  ),
  r('H3', 1, 'f3cp', 'settlement', 'the Ante bonus is paid only to hands that beat a qualifying croupier'),
  r('H3', 2, 'f3cp', 'settlement', 'the Ante bonus is paid to hands that did not play too'),
  r('H4', 1, 'f3cp', 'settlement', 'the Pair Plus of a hand that did not play is settled on its three cards'),
  r(
    'H5',
    1,
    'f3cp',
    'settlement',
    'a f3cp-2008a round with an Ante or Pair Plus bet is refused (not derived): art. 9.º 7)-9) unknown',
  ),
  r(
    'H6',
    1,
    'f3cp',
    'findings',
    'a croupier card exposed during the deal invalidates a 2008 round: settled, it is F3CP08.IRREG.NOT_VOIDED; voided, no F3CP08.IRREG.WRONGLY_VOIDED',
  ),
  r('H7', 1, 'f3cp', 'settlement', 'the croupier qualifies only when holding a card of Q or higher'),
  r('H8', 1, 'f3cp', 'findings', 'a breach the table handled by invalidating the round raises no finding'),
  r(
    'C1',
    1,
    'craps',
    'findings',
    'a come-out craps (2, 3, 12) after the shooter’s first throw passes the dice as a seven-out does: CRAPS.SHOOTER.NOT_CHANGED and WRONGLY_CHANGED judge the change by it',
  ),
  r(
    'C2',
    1,
    'craps',
    'settlement',
    'the Horn’s 27:4 and 3:1 are paid on the winning unit alone, the other three units lost: 15:16 of the whole stake on 2 or 12, neither won nor lost on 3 or 11',
  ),
  r(
    'C3',
    1,
    'craps',
    'settlement',
    'a Big 6/8, 5/9 or 4/10 bet is returned (a push) on any sum but its number and 7',
  ),
  r('C5', 1, 'craps', 'settlement', 'a come-out 12 leaves Don’t Pass and Don’t Come bets on the layout'),
  r('T1', 1, 'thirteen-cards', 'settlement', 'each tier won scores one point, whatever its formation'),
  r(
    'T1',
    2,
    'thirteen-cards',
    'settlement',
    'each side scores its own formations’ points in every tier, whoever wins the tier',
  ),
  r(
    'T2',
    1,
    'thirteen-cards',
    'settlement',
    'whatever the table’s payout configuration, the units multiply the payment by the points difference (up to the units bet) and the 2% commission is taken from the stake',
  ),
  r(
    'T3',
    1,
    'thirteen-cards',
    'findings',
    'the dice sum is counted from the place after the banker (place = sum mod 4): THIRTEEN.DEAL.START_PLACE judges the first card by it',
  ),
  r('T4', 1, 'thirteen-cards', 'settlement', 'equal tiers are a foul: the tiers must rise strictly'),
  r(
    'T5',
    1,
    'thirteen-cards',
    'settlement',
    'three suited or consecutive cards in the front tier rank as a flush or a straight (above a trio)',
  ),
  r(
    'T6',
    1,
    'thirteen-cards',
    'settlement',
    'a fouled arrangement that is a natural plays as a natural; bets against a fouled banker without a natural are not settled (the banker re-arranges)',
  ),
  r(
    'M1',
    1,
    'mahjong',
    'findings',
    'the dice sum always counts stacks from the right of the banker’s own row (ring position = sum): MAHJONG.DEAL.BREAK_POSITION judges the first stack drawn by it',
  ),
  r(
    'M2',
    1,
    'mahjong',
    'findings',
    'after the three rounds of two stacks East takes one tile before the others and one after them (E, S, W, N, E): MAHJONG.DEAL.ORDER judges the turns by it',
  ),
]);

const byKey = new Map(ALTERNATIVE_READINGS.map((a) => [a.key, a]));

export const alternativeReading = (key: string): AlternativeReading | undefined => byKey.get(key);

/** The keys in `alternatives` that name an alternative of interpretation `id`, e.g. J3 → 'J3' or 'J3:2'. */
export function readsAlternative(alternatives: readonly string[], id: string): 0 | 1 | 2 {
  for (const k of alternatives) {
    if (k === id) return 1;
    if (k === `${id}:2`) return 2;
  }
  return 0;
}

/** A what-if request parsed: the keys selected, each with its interpretation. */
export interface WhatIfSelection {
  readonly keys: readonly string[];
}

export class WhatIfSpecError extends Error {}

/**
 * Parses `J4=ALT,J6=ALT2,…` (ALT: the register's first alternative, ALT2: its second, CHOSEN: the register's
 * reading, i.e. no change). Errors name the item and its position; an id with no selectable alternative says why.
 */
export function parseWhatIf(spec: string): string[] {
  if (spec.length > 2_000)
    throw new WhatIfSpecError(`--what-if: at most 2,000 characters, got ${spec.length}`);
  const keys: string[] = [];
  const items = spec.split(',');
  items.forEach((raw, i) => {
    const item = raw.trim();
    const where = `item ${i + 1} ("${item}")`;
    const m = /^([A-Z][0-9]{1,2})=(ALT2?|CHOSEN)$/i.exec(item);
    if (!m)
      throw new WhatIfSpecError(
        `--what-if ${where}: expected ID=ALT, ID=ALT2 or ID=CHOSEN, e.g. J2=ALT (interpretation ids: table-audit interpretations)`,
      );
    const id = m[1]!.toUpperCase();
    const which = m[2]!.toUpperCase();
    if (!INTERPRETATIONS.some((x) => x.id === id))
      throw new WhatIfSpecError(`--what-if ${where}: ${id} is not in the interpretation register`);
    if (which === 'CHOSEN') return;
    const key = which === 'ALT2' ? `${id}:2` : id;
    if (!byKey.has(key)) {
      const w = WHAT_IF[id];
      const other =
        which === 'ALT2' && byKey.has(id) ? `; ${id} has one selectable alternative: ${id}=ALT` : '';
      throw new WhatIfSpecError(
        `--what-if ${where}: ${which === 'ALT2' && byKey.has(id) ? `${id} has no second alternative` : `the alternative reading of ${id} is not selectable: ${w?.status === 'implemented' ? '' : (w?.reason ?? '')}`}${other}`,
      );
    }
    if (keys.some((k) => k.split(':')[0] === id))
      throw new WhatIfSpecError(`--what-if ${where}: ${id} is named twice`);
    keys.push(key);
  });
  return keys;
}

/** `J3:2` → `J3=ALT2`, `J2` → `J2=ALT`: how a key is written on the command line. */
export const whatIfLabel = (key: string): string =>
  key.includes(':') ? `${key.split(':')[0]}=ALT${key.split(':')[1]}` : `${key}=ALT`;

const COMMUNITY_REVEALED = 'F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS';

/**
 * A unit's findings under the finding-level alternatives (J19, H8, J20): pure; the same array when none is
 * selected or none applies.
 */
export function findingsUnderReadings(
  findings: readonly Finding[],
  alternatives: readonly string[],
): readonly Finding[] {
  if (!alternatives.length || !findings.length) return findings;
  const j19 = alternatives.includes('J19');
  const h8 = alternatives.includes('H8');
  const j20 = alternatives.includes('J20');
  if (!j19 && !h8 && !j20) return findings;
  const kept = findings.filter((f) => {
    const era2008 = f.ruleSet.startsWith('f3cp-2008');
    const f3cp2025 = f.ruleSet.startsWith('f3cp-2025');
    if (f.handled && ((j19 && f3cp2025) || (h8 && era2008))) return false;
    if (j20 && f3cp2025 && f.checkId === COMMUNITY_REVEALED) return false;
    return true;
  });
  return kept.length === findings.length ? findings : kept;
}
