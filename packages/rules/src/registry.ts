import { parseMacauDate } from './dates.ts';
import { CRAPS_2010, type CrapsRuleSet } from './craps/rule-set.ts';
import { THIRTEEN_CARDS_1989, type ThirteenRuleSet } from './thirteen/rule-set.ts';
import { F3CP_2008, F3CP_2008A, F3CP_2025, F3CP_2025A, type F3cpRuleSet } from './f3cp/rule-set.ts';

/**
 * The rule-set registry: which official rules govern a round, by game and the round's date in Macau
 * (UTC+8). Every entry names its diploma(s) and its interval of validity (inclusive local dates).
 */
export type Game = 'f3cp' | 'craps' | 'thirteen-cards' | 'mahjong';

/** What every rule set's engine data says of itself. */
export interface GameRules {
  readonly id: string;
  readonly game: Game;
  readonly title: string;
}

/** The engine data of each game's rule sets; a game not built yet has only the common part. */
export interface RulesByGame {
  f3cp: F3cpRuleSet;
  craps: CrapsRuleSet;
  'thirteen-cards': ThirteenRuleSet;
  mahjong: GameRules;
}

export interface RuleSetEntry<G extends Game = Game> {
  readonly id: string;
  readonly game: G;
  readonly diplomas: readonly string[];
  /** first and last Macau local date (YYYY-MM-DD) the rules govern; `to` null = still in force */
  readonly from: string;
  readonly to: string | null;
  /** 'not-implemented' until the rule set's issue lands: the registry says so as data, not as message text */
  readonly status: 'implemented' | 'not-implemented';
  /** the engine's data, or null while this rule set is not implemented */
  readonly rules: RulesByGame[G] | null;
  /** the project's page on the game and these rules, under docs/games/ (the Mah-Jong deal: mahjong-1989.md) */
  readonly spec: string;
}

export const RULE_SETS: readonly RuleSetEntry[] = [
  {
    id: 'f3cp-2008',
    game: 'f3cp',
    diplomas: ['78/2008'],
    from: '2008-08-12',
    to: '2008-12-15',
    status: 'implemented',
    rules: F3CP_2008,
    spec: 'f3cp-2008.md',
  },
  {
    id: 'f3cp-2008a',
    game: 'f3cp',
    diplomas: ['78/2008', '97/2008'],
    from: '2008-12-16',
    to: '2025-11-10',
    status: 'implemented',
    rules: F3CP_2008A,
    spec: 'f3cp-2008.md',
  },
  {
    id: 'f3cp-2025',
    game: 'f3cp',
    diplomas: ['89/2025'],
    from: '2025-11-11',
    to: '2025-11-17',
    status: 'implemented',
    rules: F3CP_2025,
    spec: 'f3cp-2025.md',
  },
  {
    id: 'f3cp-2025a',
    game: 'f3cp',
    diplomas: ['89/2025', '94/2025'],
    from: '2025-11-18',
    to: null,
    status: 'implemented',
    rules: F3CP_2025A,
    spec: 'f3cp-2025.md',
  },
  {
    id: 'craps-2010',
    game: 'craps',
    diplomas: ['53/2010'],
    from: '2010-03-09',
    to: null,
    status: 'implemented',
    rules: CRAPS_2010,
    spec: 'craps-2010.md',
  },
  {
    // the law is in packages/rules/src/thirteen; ta.thirteen.* events fold into the round facts the checks judge
    id: 'thirteen-cards-1989',
    game: 'thirteen-cards',
    diplomas: ['Portaria 51/89/M'],
    from: '1989-03-20',
    to: null,
    status: 'implemented',
    rules: THIRTEEN_CARDS_1989,
    spec: 'thirteen-cards-1989.md',
  },
  {
    // the deal only (art. 1.º–2.º): outcomes and payouts are out of scope until the rest of the regulation is
    // available; the deal checks are in packages/rules/src/mahjong, fed by ta.mahjong.* events
    id: 'mahjong-1989-deal',
    game: 'mahjong',
    diplomas: ['Portaria 52/89/M'],
    from: '1989-03-20',
    to: null,
    status: 'implemented',
    rules: {
      id: 'mahjong-1989-deal',
      game: 'mahjong',
      title: 'Mah-Jong, the deal (Portaria n.º 52/89/M art. 1.º–2.º)',
    },
    spec: 'mahjong-1989.md',
  },
];

export type RuleSetLookup<G extends Game = Game> =
  | {
      readonly status: 'implemented';
      readonly localDate: string;
      readonly entry: RuleSetEntry<G>;
      readonly rules: RulesByGame[G];
    }
  | {
      readonly status: 'not-implemented';
      readonly localDate: string;
      readonly entry: RuleSetEntry<G>;
      readonly reason: string;
    }
  | { readonly status: 'no-rules'; readonly localDate: string; readonly reason: string };

const MACAU_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** the Macau day (days since 1970-01-01, Macau time) macauDate last answered for, and its text */
let lastDay = Number.NaN;
let lastDayText = '';

/** The Macau local date (UTC+8, no daylight saving) of an instant given in UTC milliseconds. */
export function macauDate(utcMillis: number): string {
  // a replay asks for the date of every round, and rounds come day after day: the last day's text is kept
  // (the day of the instant Date keeps: it drops the fraction of a millisecond toward zero)
  const day = Math.floor(Math.trunc(utcMillis + MACAU_OFFSET_MS) / DAY_MS);
  if (day === lastDay) return lastDayText; // NaN and ±Infinity are never equal to a kept day
  const local = new Date(utcMillis + MACAU_OFFSET_MS);
  if (!Number.isFinite(utcMillis) || Number.isNaN(local.getTime()))
    throw new RangeError(`event time ${utcMillis} is not a time in milliseconds that has a date`);
  lastDayText = local.toISOString().slice(0, 10);
  lastDay = day;
  return lastDayText;
}

const byDay = new Map<string, RuleSetLookup>();
let lastLookupDay = Number.NaN;
let lastLookupGame: Game | null = null;
let lastLookup: RuleSetLookup | null = null;

/** The rule set governing a round of `game` on a Macau local date, or an instant (UTC ms). */
export function ruleSetFor<G extends Game>(game: G, when: string | number): RuleSetLookup<G> {
  return lookupCached(game, when) as RuleSetLookup<G>;
}

function lookupCached(game: Game, when: string | number): RuleSetLookup {
  if (typeof when === 'number' && Number.isFinite(when)) {
    // the replay asks once per round: remember the answer per game and Macau day
    const day = Math.floor((when + MACAU_OFFSET_MS) / DAY_MS);
    if (day === lastLookupDay && game === lastLookupGame) return lastLookup!; // the same table, the same day
    const key = `${game}:${day}`;
    let found = byDay.get(key);
    if (!found) byDay.set(key, (found = lookup(game, macauDate(when))));
    lastLookupDay = day;
    lastLookupGame = game;
    lastLookup = found;
    return found;
  }
  return lookup(game, typeof when === 'number' ? macauDate(when) : when);
}

function lookup(game: Game, localDate: string): RuleSetLookup {
  parseMacauDate(localDate, `the Macau date of a ${game} round`);
  const entry = RULE_SETS.find(
    (e) => e.game === game && e.from <= localDate && (e.to === null || localDate <= e.to),
  );
  if (!entry)
    return { status: 'no-rules', localDate, reason: `no ${game} rules in the registry govern ${localDate}` };
  if (entry.status === 'not-implemented' || !entry.rules) {
    return {
      status: 'not-implemented',
      localDate,
      entry,
      reason: `rule set ${entry.id} (${entry.diplomas.join(' + ')}) governs ${localDate} but is not implemented yet`,
    };
  }
  return { status: 'implemented', localDate, entry, rules: entry.rules } as RuleSetLookup;
}

export function ruleSetById(id: string): RuleSetEntry {
  const entry = RULE_SETS.find((e) => e.id === id);
  if (!entry) throw new Error(`unknown rule set "${id}"; known: ${RULE_SETS.map((e) => e.id).join(', ')}`);
  return entry;
}

/** The engine data of an implemented Fortune 3 Card Poker rule set. */
export function f3cpRules(id: string): F3cpRuleSet {
  const entry = ruleSetById(id);
  if (entry.game !== 'f3cp') throw new Error(`rule set ${id} is a ${entry.game} rule set, not a f3cp one`);
  if (entry.status === 'not-implemented' || !entry.rules)
    throw new Error(`rule set ${id} (${entry.diplomas.join(' + ')}) is not implemented yet`);
  return entry.rules as F3cpRuleSet;
}
