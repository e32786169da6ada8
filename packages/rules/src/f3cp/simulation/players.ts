/**
 * The players the simulator seats, as data: how each kind stakes its Ante and whether it sees its neighbours'
 * cards. A table with session conduct (art. 18.º) seats its players by `CONDUCT_SEATING`.
 */
import type { SessionConduct } from '../../game.ts';
import type { Rng } from '../../rng.ts';

export interface Player {
  readonly id: string;
  readonly kind: PlayerKind;
  /** the stake the player starts from */
  readonly base: number;
  lastStake: number;
  lastResult: 'win' | 'lose' | 'push';
}

export interface PlayerKind {
  readonly name: 'ordinary' | 'doubling' | 'colluder';
  base(rng: Rng): number;
  /** the Ante of the next round, from the last one and its result */
  stake(player: Player, rng: Rng): number;
  /** decides knowing the cards of the colluders within two seats (art. 18.º n.º 3) */
  readonly sharesCards: boolean;
}

export const STAKES = [10_000, 20_000, 50_000, 100_000];

const usualStake = (p: Player, rng: Rng): number =>
  p.lastStake && rng.next() < 0.6 ? p.lastStake : rng.pick(STAKES);

export const PLAYER_KINDS = {
  ordinary: { name: 'ordinary', base: (rng) => rng.pick(STAKES), stake: usualStake, sharesCards: false },
  // doubles the Ante after each loss, up to the table maximum, and starts again after a win (a martingale)
  doubling: {
    name: 'doubling',
    base: () => 10_000,
    stake: (p) => (p.lastResult === 'lose' && p.lastStake * 2 <= 2_000_000 ? p.lastStake * 2 : p.base),
    sharesCards: false,
  },
  colluder: { name: 'colluder', base: (rng) => rng.pick(STAKES), stake: usualStake, sharesCards: true },
} as const satisfies Record<PlayerKind['name'], PlayerKind>;

/** Who sits where at a table whose players show a conduct over the session. */
export interface ConductSeating {
  /** the table's seats (otherwise 5 to 7) */
  readonly seats?: number;
  /** players seated at the start (otherwise 3 or more) */
  readonly seated?: number;
  /** seat → the kind of its player (the others are ordinary) */
  readonly kinds: Readonly<Record<number, PlayerKind>>;
  /** nobody leaves or sits down during the session */
  readonly fixedSeating: boolean;
}

export const CONDUCT_SEATING: Readonly<Record<SessionConduct, ConductSeating>> = {
  'betting-system': { kinds: { 1: PLAYER_KINDS.doubling }, fixedSeating: false },
  // three neighbours in the middle of a full table share their cards
  collusion: {
    seats: 7,
    seated: 7,
    kinds: { 3: PLAYER_KINDS.colluder, 4: PLAYER_KINDS.colluder, 5: PLAYER_KINDS.colluder },
    fixedSeating: true,
  },
};
