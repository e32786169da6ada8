/** The what-if benches' simulated play: `tables` × `rounds` of F3CP from 2025-12-01, 5 % of rounds with a fault, 2 % handled. */
import { simulateSession } from '@table-audit/simulator';

export const whatIfSession = (tables: number, rounds: number) =>
  simulateSession({ seed: 16, tables, roundsPerTable: rounds, faultRate: 0.05, handledRate: 0.02 });
