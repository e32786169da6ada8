import { F3CP_EVENT_TYPES, type F3cpEvent } from '@table-audit/schemas/events';
import { DEFAULT_REPLAY_OPTIONS, type GameModule } from '../game.ts';
import { F3CP_CHECKS } from './checks/index.ts';
import { F3CP08 } from './checks/f3cp08-definitions.ts';
import { warmCollusionTables } from './checks/art-18-collusion.ts';
import { F3cpTable, type ReplayedRound } from './table.ts';
import { f3cpEventProblems } from './validate.ts';
import { F3CP_SIMULATION } from './simulation/index.ts';

/**
 * Fortune 3 Card Poker: Despacho 89/2025 (rule sets f3cp-2025 and f3cp-2025a, checks F3CP.*) and Despacho 78/2008
 * with art. 9.º re-worded by 97/2008 (f3cp-2008 and f3cp-2008a, checks F3CP08.*), each round by its Macau date.
 */
export const F3CP_MODULE: GameModule<ReplayedRound> = {
  game: 'f3cp',
  tableGame: 'F3CP',
  title: 'Fortune 3 Card Poker',
  eventTypes: new Set<string>(F3CP_EVENT_TYPES),
  checks: [...Object.values(F3CP_CHECKS), ...Object.values(F3CP08)],
  // who bet (BetPlaced.playerId) is what these checks are about: with the field read as its default (null) they
  // see an anonymous bet and stay silent
  fieldDependencies: {
    'BetPlaced.playerId': [
      F3CP_CHECKS.betOtherHand.id,
      F3CP_CHECKS.conductBettingSystem.id,
      F3CP_CHECKS.conductCollusion.id,
    ],
    // not listed: F3CP08.BET.OTHER_HAND (2008 rounds) — the dependency is per game, not per rule set, so listing it
    // would report it not run on 2025 rounds too; a 2008 round without playerId is silent on it (docs/games/f3cp-2008.md)
  },
  validate: (event) => f3cpEventProblems(event as F3cpEvent),
  newTable: (tableId, options) => new F3cpTable(tableId, options),
  resumeTable: (tableId, startState, options) =>
    new F3cpTable(tableId, { ...DEFAULT_REPLAY_OPTIONS, ...options, startStates: false }).resume(startState),
  warm: () => void warmCollusionTables(),
  // read when asked for: the simulation imports the engine through the module's index, which imports this file
  get simulation() {
    return F3CP_SIMULATION;
  },
};
