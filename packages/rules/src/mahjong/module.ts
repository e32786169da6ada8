/**
 * Mah-Jong, the deal only: Portaria 52/89/M art. 1.º–2.º (rule set mahjong-1989-deal). The unit the law judges is
 * a game's deal; outcomes and payments are out of scope (no rules for them in the text held). The simulator
 * plays the labelled deals of simulation.ts as ta.mahjong.* events between RoundStarted and RoundSettled.
 */
import { MAHJONG_EVENT_TYPES, type MahjongEvent, type TableEvent } from '@table-audit/schemas/events';
import type {
  GameModule,
  GameSimulation,
  PlayedRounds,
  SimulatedTable,
  SimulatedTableSpec,
} from '../game.ts';
import { MAHJONG_CHECKS } from './checks.ts';
import { eventsOfDeal } from './events.ts';
import { cleanMahjongDeal, MAHJONG_FAULTS } from './simulation.ts';
import { MahjongTable, type MahjongGameUnit } from './table.ts';
import { mahjongEventProblems } from './validate.ts';

class MahjongSimTable implements SimulatedTable {
  readonly conductPlayers: readonly string[] = [];
  private gameNo = 0;
  private readonly dealer: string;

  constructor(private readonly spec: SimulatedTableSpec) {
    this.dealer = `${spec.tableId}-D1`;
  }

  open(): TableEvent[] {
    return [
      {
        type: 'TableOpened',
        data: {
          header: this.spec.clock.stamp('TABLE_CONTROLLER', null, this.dealer),
          game: 'MAHJONG',
          seats: 4,
          betLimits: [],
          shuffleMode: 'MANUAL',
          jackpot: null,
          rounding: { unitAvos: 1, mode: 'DOWN' },
          currency: 'MOP',
          craps: null,
          thirteenCards: null,
        },
      },
    ];
  }

  canInject(fault: string): boolean {
    return MAHJONG_FAULTS.some((f) => f.name === fault);
  }

  canHandle(): boolean {
    return false;
  }

  playRound(fault: string | null): PlayedRounds {
    const roundNumber = ++this.gameNo;
    const roundId = `${this.spec.tableId}/${roundNumber}`;
    const { clock, rng } = this.spec;
    const stamp = (time: number | null) => {
      const header = clock.stamp('TABLE_CONTROLLER', roundId, this.dealer);
      if (time !== null) header.eventTime = time;
      return header;
    };
    const events: TableEvent[] = [
      {
        type: 'RoundStarted',
        data: { header: stamp(null), roundNumber, dealerId: this.dealer, shuffleId: null },
      },
    ];
    const start = clock.now() + 1_000;
    let deal = cleanMahjongDeal(rng, { roundId, tableId: this.spec.tableId, start });
    const f = fault ? MAHJONG_FAULTS.find((x) => x.name === fault) : undefined;
    if (f) deal = f.apply(deal, rng);
    let last = start;
    for (const e of eventsOfDeal(deal)) {
      last = Math.max(last, e.time);
      events.push({ type: e.type, data: { header: stamp(e.time), ...e.data } } as MahjongEvent);
    }
    clock.pause(Math.max(0, last - clock.now()) + 1_000);
    events.push({ type: 'RoundSettled', data: { header: stamp(null) } });
    clock.pause(20 * 60_000);
    return { events, faultyRoundId: f ? roundId : null };
  }

  close(): TableEvent[] {
    const header = this.spec.clock.stamp('TABLE_CONTROLLER', null, this.dealer);
    return [{ type: 'TableClosed', data: { header, reason: 'end of session' } }];
  }
}

export const MAHJONG_SIMULATION: GameSimulation = {
  roundFaults: MAHJONG_FAULTS.map((f) => ({ name: f.name, checkIds: f.checkIds })),
  handledIrregularities: [],
  conduct: {},
  openTable: (spec: SimulatedTableSpec) => new MahjongSimTable(spec),
};

export const MAHJONG_MODULE: GameModule<MahjongGameUnit> = {
  game: 'mahjong',
  tableGame: 'MAHJONG',
  title: 'Mah-Jong (the deal)',
  eventTypes: new Set<string>(MAHJONG_EVENT_TYPES),
  checks: Object.values(MAHJONG_CHECKS),
  validate: (event) => mahjongEventProblems(event as MahjongEvent),
  newTable: (tableId, options) =>
    new MahjongTable(tableId, options?.alternatives, options?.startStates === true),
  resumeTable: (tableId, startState, options) =>
    new MahjongTable(tableId, options?.alternatives).resume(startState),
  get simulation() {
    return MAHJONG_SIMULATION;
  },
};
