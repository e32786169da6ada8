/**
 * Seeded, labelled table sessions for any game that has a simulation part: the simulator keeps the tables, the
 * seed, the clock, the casinos, the fault schedule (every kind in turn), the ground truth and the delivery order;
 * the game module plays its rounds (`GameModule.simulation`).
 */
import {
  gameModuleFor,
  GAME_MODULES,
  seededRng,
  type SessionConduct,
  type TableEvent,
} from '@table-audit/rules';
import { deliveryTimes, renumber, SimulatedClock } from './clock.ts';
import { ROUND_FAULTS, type GroundTruth, type RoundFault } from './faults.ts';

export interface SessionOptions {
  seed: number;
  tables: number;
  roundsPerTable: number;
  /** first event time, UTC ms; the rule set follows from the Macau date */
  start: number;
  /** the game the tables play, as TableOpened.game names it */
  game: string;
  /** share of rounds given one of `faults` (assigned in turn, so every kind appears) */
  faultRate: number;
  /** default: every round fault of the catalogue in force at `start` (GameSimulation.catalogueAt) */
  faults: readonly RoundFault[];
  /** put before every table id, e.g. '2019-', so that sessions of two eras can share one store */
  tableIdPrefix: string;
  /** share of rounds given an irregularity that the table handles correctly (must raise nothing) */
  handledRate: number;
  /** tables with one player who doubles the Ante after each loss */
  bettingSystemTables: number;
  /** tables with three adjacent players who share their cards, and how many rounds those tables play */
  collusionTables: number;
  collusionRounds: number;
}

export const DEFAULT_SESSION: SessionOptions = {
  seed: 1,
  tables: 10,
  roundsPerTable: 50,
  start: Date.parse('2025-12-01T04:00:00Z'),
  game: GAME_MODULES.find((m) => m.simulation)!.tableGame,
  faultRate: 0,
  faults: ROUND_FAULTS,
  tableIdPrefix: '',
  handledRate: 0,
  bettingSystemTables: 0,
  collusionTables: 0,
  collusionRounds: 400,
};

export interface Session {
  tables: { tableId: string; events: TableEvent[] }[];
  truth: GroundTruth[];
  /** every event of every table, in the order they reached the pipeline (ties keep table order) */
  events: TableEvent[];
}

/** Casino, concessionaire, and the code that starts the ids of its tables. */
const CASINOS: readonly [string, string, string][] = [
  ['Casino Lisboa', 'SJM Resorts', 'LIS'],
  ['Galaxy Macau', 'Galaxy Casino', 'MAC'],
  ['The Venetian Macao', 'Venetian Macau', 'MAC'],
  ['MGM Cotai', 'MGM Grand Paradise', 'COT'],
  ['Wynn Palace', 'Wynn Resorts (Macau)', 'PAL'],
  ['City of Dreams', 'Melco Resorts (Macau)', 'DRE'],
];

/** Generates seeded, reproducible table sessions with labelled faults. */
export function simulateSession(options: Partial<SessionOptions> = {}): Session {
  const o = { ...DEFAULT_SESSION, ...options };
  const game = gameModuleFor(o.game);
  const sim = game?.simulation;
  if (!game || !sim) throw new Error(`the simulator cannot play ${o.game}: no game module with a simulation`);
  if (!/^[A-Za-z0-9-]{0,16}$/.test(o.tableIdPrefix))
    throw new Error(
      `tableIdPrefix "${o.tableIdPrefix.slice(0, 40)}": up to 16 letters, digits or hyphens (it starts every table id)`,
    );
  // without a list of faults, the catalogue of the game's rule set in force at the start (the default list is the
  // default game's)
  const catalogue = sim.catalogueAt?.(o.start) ?? sim;
  if (options.faults === undefined) o.faults = catalogue.roundFaults.map((f) => f.name);
  const checkIds = new Map(catalogue.roundFaults.map((f) => [f.name, f.checkIds]));
  const unknown = o.faults.filter((f) => !checkIds.has(f));
  if (unknown.length)
    throw new Error(
      `${game.title} has no fault ${unknown.join(', ')} under the rules in force at ${new Date(o.start).toISOString()}`,
    );
  const handledKinds = catalogue.handledIrregularities;

  const r = seededRng(o.seed);
  const truth: GroundTruth[] = [];
  const tables: Session['tables'] = [];
  const delivered: number[][] = [];
  let faultTurn = 0;
  let handledTurn = 0;
  for (let t = 0; t < o.tables; t++) {
    const conduct: SessionConduct | null =
      t < o.collusionTables
        ? 'collusion'
        : t < o.collusionTables + o.bettingSystemTables
          ? 'betting-system'
          : null;
    const [casino, concessionaire, code] = CASINOS[t % CASINOS.length]!;
    const tableId = `${o.tableIdPrefix}${code}-${game.tableGame}-${String(t + 1).padStart(3, '0')}`;
    const clock = new SimulatedClock(r, o.start + t * 1_000, { casino, concessionaire, tableId });
    const conductLabel = conduct ? sim.conduct[conduct] : undefined;
    if (conduct && !conductLabel) throw new Error(`${game.title} has no ${conduct} conduct to simulate`);
    const table = sim.openTable({ tableId, rng: r, clock, conduct });
    const events = table.open();
    const moves: { event: TableEvent; before: TableEvent }[] = [];
    if (conduct)
      truth.push({
        tableId,
        roundId: null,
        ...conductLabel!,
        fault: conduct,
        players: [...table.conductPlayers],
      });
    // colluders play a long session of clean rounds: the statistics must stand on their decisions alone
    const colluding = conduct === 'collusion';
    const rounds = colluding ? o.collusionRounds : o.roundsPerTable;
    for (let i = 0; i < rounds; i++) {
      let fault: RoundFault | null = null;
      let handled: string | null = null;
      if (!colluding && o.faults.length && r.next() < o.faultRate) {
        for (let k = 0; k < o.faults.length && !fault; k++) {
          const candidate = o.faults[(faultTurn + k) % o.faults.length]!;
          if (table.canInject(candidate, i === rounds - 1)) {
            fault = candidate;
            faultTurn = (faultTurn + k + 1) % o.faults.length;
          }
        }
      } else if (!colluding && handledKinds.length && r.next() < o.handledRate) {
        const candidate = handledKinds[handledTurn++ % handledKinds.length]!;
        if (table.canHandle(candidate)) handled = candidate;
      }
      const played = table.playRound(fault, handled);
      events.push(...played.events);
      moves.push(...(played.deliveredOutOfOrder ?? []));
      if (fault && played.faultyRoundId)
        truth.push({ tableId, roundId: played.faultyRoundId, fault, checkIds: checkIds.get(fault)! });
    }
    events.push(...table.close());
    renumber(events);
    for (const { event, before } of moves) {
      // numbered as emitted, received out of that order
      events.splice(events.indexOf(event), 1);
      events.splice(events.indexOf(before), 0, event);
    }
    tables.push({ tableId, events });
    delivered.push(deliveryTimes(events));
  }
  // interleaved by when each event reached the pipeline (an event may carry a wrong time of its own)
  const order = tables.flatMap((x, t) => x.events.map((e, i) => ({ e, at: delivered[t]![i]! })));
  const events = order.sort((a, b) => a.at - b.at).map((x) => x.e);
  return { tables, truth, events };
}
