/**
 * How a 13 Cards table plays in the simulator: the labelled round facts of simulation.ts (a correct table, or one
 * fault or one correctly handled irregularity per round) written as the events a table controller and the
 * surveillance emit (events.ts), between RoundStarted and RoundSettled. Each event's time is the fact's time.
 */
import type { TableEvent, ThirteenEvent } from '@table-audit/schemas/events';
import type {
  FaultLabel,
  GameSimulation,
  PlayedRounds,
  SimulatedTable,
  SimulatedTableSpec,
} from '../game.ts';
import { dealAfterCancellations, eventsOfRound, settingsOf } from './events.ts';
import { THIRTEEN_CARDS_1989, type ThirteenRuleSet } from './rule-set.ts';
import type { ThirteenRound } from './round.ts';
import { cleanThirteenRound, THIRTEEN_FAULTS, THIRTEEN_HANDLED } from './simulation.ts';

/** Every fault a 13 Cards round can carry, with the checks that must find it. */
export const THIRTEEN_ROUND_FAULTS: readonly FaultLabel[] = THIRTEEN_FAULTS.map((f) => ({
  name: f.name,
  checkIds: f.checkIds,
}));

/** How many fresh rounds the table deals looking for one that can show a fault (a foul needs a swap that fouls). */
const TRIES = 30;

class ThirteenSimTable implements SimulatedTable {
  readonly conductPlayers: readonly string[] = [];
  private roundNo = 0;
  private readonly dealer: string;
  private readonly rules: ThirteenRuleSet = THIRTEEN_CARDS_1989;

  constructor(private readonly spec: SimulatedTableSpec) {
    this.dealer = `${spec.tableId}-D1`;
  }

  open(): TableEvent[] {
    return [
      {
        type: 'TableOpened',
        data: {
          header: this.spec.clock.stamp('TABLE_CONTROLLER', null, this.dealer),
          game: 'THIRTEEN_CARDS',
          seats: 0,
          betLimits: [],
          shuffleMode: 'AUTOMATIC',
          jackpot: null,
          rounding: { unitAvos: 1, mode: 'DOWN' },
          currency: 'MOP',
          craps: null,
          thirteenCards: settingsOf(this.rules.payout),
        },
      },
    ];
  }

  canInject(fault: string): boolean {
    return THIRTEEN_FAULTS.some((f) => f.name === fault);
  }

  canHandle(irregularity: string): boolean {
    return THIRTEEN_HANDLED.some((h) => h.name === irregularity);
  }

  playRound(fault: string | null, handled: string | null): PlayedRounds {
    const roundNumber = ++this.roundNo;
    const roundId = `${this.spec.tableId}/${roundNumber}`;
    const { clock, rng } = this.spec;
    const events: TableEvent[] = [];
    const stamp = (source: 'TABLE_CONTROLLER' | 'SURVEILLANCE', time: number | null) => {
      const header = clock.stamp(source, roundId, source === 'SURVEILLANCE' ? null : this.dealer);
      if (time !== null) header.eventTime = time;
      return header;
    };
    events.push({
      type: 'RoundStarted',
      data: { header: stamp('TABLE_CONTROLLER', null), roundNumber, dealerId: this.dealer, shuffleId: null },
    });
    const start = clock.now();
    const f = fault ? THIRTEEN_FAULTS.find((x) => x.name === fault) : undefined;
    let round: ThirteenRound | null = null;
    for (let i = 0; i < TRIES && round === null; i++) {
      const clean = cleanThirteenRound(rng, this.rules, { roundId, tableId: this.spec.tableId, start });
      round = f ? f.apply(clean, rng, this.rules) : clean;
    }
    if (round === null) throw new Error(`13 Cards simulator: no round of ${TRIES} could show ${fault}`);
    const h = handled ? THIRTEEN_HANDLED.find((x) => x.name === handled) : undefined;
    if (h) round = h.apply(round, this.rules);
    round = dealAfterCancellations(round);
    let last = start;
    for (const e of eventsOfRound(round)) {
      last = Math.max(last, e.time);
      events.push({ type: e.type, data: { header: stamp(e.source, e.time), ...e.data } } as ThirteenEvent);
    }
    clock.pause(Math.max(0, last - clock.now()) + 1_000);
    events.push({ type: 'RoundSettled', data: { header: stamp('TABLE_CONTROLLER', null) } });
    clock.pause(30_000);
    return { events, faultyRoundId: f ? roundId : null };
  }

  close(): TableEvent[] {
    const header = this.spec.clock.stamp('TABLE_CONTROLLER', null, this.dealer);
    return [{ type: 'TableClosed', data: { header, reason: 'end of session' } }];
  }
}

export const THIRTEEN_SIMULATION: GameSimulation = {
  roundFaults: THIRTEEN_ROUND_FAULTS,
  handledIrregularities: THIRTEEN_HANDLED.map((h) => h.name),
  conduct: {},
  openTable: (spec) => new ThirteenSimTable(spec),
};
