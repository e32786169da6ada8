/**
 * The faults the simulator can inject, each with the check ids that must find it, as the game modules declare
 * them. A fault is injected into one round (or, for conduct over time, into a player's whole session) and written
 * to the ground truth with those ids.
 */
import { GAME_MODULES, type GameSimulation } from '@table-audit/rules';

const SIMULATIONS: readonly GameSimulation[] = GAME_MODULES.flatMap((m) =>
  m.simulation ? [m.simulation] : [],
);

/** Every round fault of every simulated game → the check ids that must find it. */
export const FAULTS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  SIMULATIONS.flatMap((s) => s.roundFaults.map((f) => [f.name, f.checkIds])),
);

/** A round fault's name, e.g. 'payout-wrong'. */
export type RoundFault = string;
/** The round faults of the default game (the first simulated one, Fortune 3 Card Poker). */
export const ROUND_FAULTS: readonly RoundFault[] = SIMULATIONS[0]!.roundFaults.map((f) => f.name);
/** The round faults of one game, by the symbol its tables declare (TableOpened.game). */
export const roundFaultsOf = (tableGame: string): readonly RoundFault[] =>
  GAME_MODULES.find((m) => m.tableGame === tableGame)?.simulation?.roundFaults.map((f) => f.name) ?? [];

/**
 * Irregularities a table handles correctly: injected as negative controls, they must produce no finding (for
 * F3CP: a shuffler malfunction answered by voiding the round and carrying the Progressive bets over; one player
 * card exposed and play going on; a card dealt to an empty seat and left out).
 */
export const HANDLED_IRREGULARITIES: readonly string[] = SIMULATIONS.flatMap((s) => s.handledIrregularities);
export type HandledIrregularity = string;

export interface GroundTruth {
  tableId: string;
  /** null for conduct over many rounds (betting system, collusion): matched by table and players */
  roundId: string | null;
  /** a round fault, or a conduct over the session ('betting-system', 'collusion') */
  fault: string;
  checkIds: readonly string[];
  players?: string[];
}
