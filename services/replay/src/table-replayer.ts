import type { F3cpEvent, ShuffleCompleted, TableOpened } from '@table-audit/schemas/events';
import { F3CP_CHECKS as C } from './checks.ts';
import { CollusionTracker, type CollusionOptions } from './collusion.ts';
import { makeFinding, type Finding, type FindingContext, type FindingInput } from './finding.ts';
import { checkRound, type RoundDerivation } from './round-checks.ts';
import { buildRoundView, type RoundContext, type RoundView } from './round-view.ts';

const TABLE_STATE_EVENTS = new Set<string>([
  'TableOpened',
  'TableClosed',
  'ShuffleStarted',
  'ShuffleCompleted',
  'ShufflerMalfunction',
  'ShufflerReplaced',
  'DealingSwitchedToShoe',
  'JackpotPoolChanged',
  'SeatOccupied',
  'SeatVacated',
]);

export interface ReplayOptions {
  /** consecutive consistent steps of a result-driven progression before BETTING_SYSTEM is raised */
  bettingSystemRun: number;
  /** of which at least this many must be doublings after a loss */
  bettingSystemDoublings: number;
  collusion: CollusionOptions;
}

export const DEFAULT_REPLAY_OPTIONS: ReplayOptions = {
  bettingSystemRun: 10,
  bettingSystemDoublings: 4,
  collusion: { minRounds: 30, alpha: 0.001, evaluateEvery: 25 },
};

/** A completed round as the replay saw it: the derivation and every finding attributed to it. */
export interface ReplayedRound extends RoundDerivation {
  readonly tableId: string;
  readonly view: RoundView;
}

interface OpenRound {
  roundId: string;
  events: F3cpEvent[];
  pools: (number | null)[];
  context: RoundContext;
  /** findings decided before the round's own events (shuffle procedure, second failure) */
  pending: Omit<FindingInput, never>[];
}

interface CarryOver {
  ctx: FindingContext;
  due: { seat: number; amount: number }[];
  evidence: { eventId: string; eventTime: number }[];
}

interface ProgressionRun {
  base: number;
  lastStake: number;
  lastResult: 'win' | 'lose' | 'push';
  steps: number;
  doublings: number;
  reported: boolean;
  evidence: { eventId: string; eventTime: number }[];
  rounds: string[];
}

/**
 * Folds one table's events, in order, into rounds, and runs the per-round and cross-round checks. Its state is
 * built only from the table's own events, so after a restart the replay rebuilds it by re-reading the stream.
 */
export class TableReplayer {
  private config: TableOpened | null = null;
  private dealingMode: 'SHOE' | 'SHUFFLER' = 'SHUFFLER';
  private readonly occupants = new Map<number, string>();
  private pool: number | null = null;
  private consecutiveFailures = 0;
  private lastFailureEvidence: { eventId: string; eventTime: number }[] = [];
  private pendingForNextRound: FindingInput[] = [];
  private carryOver: CarryOver | null = null;
  private open: OpenRound | null = null;
  private readonly progressions = new Map<string, ProgressionRun>();
  private readonly collusion: CollusionTracker;
  /** events that belong to no round and to no table state (kept, never dropped) */
  readonly unassigned: F3cpEvent[] = [];

  constructor(
    readonly tableId: string,
    private readonly options: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
  ) {
    this.collusion = new CollusionTracker(options.collusion);
  }

  /** Applies one event; returns the rounds it completed, with their findings. */
  apply(e: F3cpEvent): ReplayedRound[] {
    const done: ReplayedRound[] = [];
    const h = e.data.header;
    if (e.type === 'RoundStarted') {
      if (this.open) done.push(this.closeRound());
      this.startRound(e);
    } else if (this.open && h.roundId !== null && h.roundId !== this.open.roundId) {
      // an event of another round while this one is open: the open round ended without its closing event
      done.push(this.closeRound());
    }
    this.applyTableState(e);
    if (this.open && (h.roundId === this.open.roundId || h.roundId === null)) {
      this.open.events.push(e);
      this.open.pools.push(this.pool);
      if (e.type === 'RoundSettled' || e.type === 'RoundVoided') done.push(this.closeRound());
    } else if (!this.isTableStateEvent(e)) {
      this.unassigned.push(e);
    }
    if (e.type === 'TableClosed' && this.open) done.push(this.closeRound());
    return done;
  }

  /** Closes what is open and returns the table-level findings (collusion) that the events so far support. */
  finish(): { rounds: ReplayedRound[]; findings: Finding[] } {
    const rounds = this.open ? [this.closeRound()] : [];
    return { rounds, findings: this.collusion.evaluate(true) };
  }

  private isTableStateEvent(e: F3cpEvent): boolean {
    return TABLE_STATE_EVENTS.has(e.type);
  }

  private applyTableState(e: F3cpEvent): void {
    switch (e.type) {
      case 'TableOpened':
        this.config = e.data;
        this.dealingMode = e.data.shuffleMode === 'MANUAL' ? 'SHOE' : 'SHUFFLER';
        this.pool = e.data.jackpot ? e.data.jackpot.initialPool : null;
        break;
      case 'ShuffleCompleted':
        this.dealingMode = e.data.mode === 'MANUAL' ? 'SHOE' : 'SHUFFLER';
        this.checkShuffle(e.data);
        break;
      case 'ShufflerMalfunction':
        this.consecutiveFailures++;
        this.lastFailureEvidence.push({ eventId: e.data.header.eventId, eventTime: e.data.header.eventTime });
        break;
      case 'ShufflerReplaced':
      case 'DealingSwitchedToShoe':
        this.consecutiveFailures = 0;
        this.lastFailureEvidence = [];
        if (e.type === 'DealingSwitchedToShoe') this.dealingMode = 'SHOE';
        break;
      case 'JackpotPoolChanged':
        this.pool = e.data.poolAfter;
        break;
      case 'SeatOccupied':
        this.occupants.set(e.data.seat, e.data.playerId);
        break;
      case 'SeatVacated':
        if (this.occupants.get(e.data.seat) === e.data.playerId) this.occupants.delete(e.data.seat);
        break;
      default:
        break;
    }
  }

  private checkShuffle(s: ShuffleCompleted): void {
    const manualWithoutCut = s.mode === 'MANUAL' && (!s.cutCardUsed || s.cutBy === 'NONE');
    const cutWithShuffler = s.mode === 'AUTOMATIC' && s.cutCardUsed;
    if (!manualWithoutCut && !cutWithShuffler) return;
    this.pendingForNextRound.push({
      check: C.shuffleProcedure,
      discriminator: s.header.eventId,
      summary: manualWithoutCut
        ? `manual shuffle completed without a cut with the cut card (cut by ${s.cutBy}, cut card ${s.cutCardUsed ? 'used' : 'not used'})`
        : `cut card used with the automatic shuffler ${s.shufflerId ?? ''}`.trim(),
      expected:
        s.mode === 'MANUAL' ? { cutCardUsed: true, cutBy: 'BANKER or PLAYER' } : { cutCardUsed: false },
      declared: { mode: s.mode, cutCardUsed: s.cutCardUsed, cutBy: s.cutBy },
      evidence: [{ eventId: s.header.eventId, eventTime: s.header.eventTime }],
    });
  }

  private startRound(e: Extract<F3cpEvent, { type: 'RoundStarted' }>): void {
    if (!this.config) {
      this.unassigned.push(e);
      return;
    }
    const pending = this.pendingForNextRound;
    this.pendingForNextRound = [];
    if (this.consecutiveFailures >= 2 && this.dealingMode === 'SHUFFLER') {
      pending.push({
        check: C.irregPlayAfterSecondFailure,
        summary: `round started after ${this.consecutiveFailures} consecutive shuffler failures, with neither a new shuffler nor a shoe`,
        expected: 'no new round until the shuffler is replaced or a shoe is used',
        declared: { consecutiveFailures: this.consecutiveFailures },
        evidence: [
          ...this.lastFailureEvidence,
          { eventId: e.data.header.eventId, eventTime: e.data.header.eventTime },
        ],
      });
    }
    this.open = {
      roundId: e.data.header.roundId ?? e.data.header.eventId,
      events: [],
      pools: [],
      context: { config: this.config, dealingMode: this.dealingMode, occupants: new Map(this.occupants) },
      pending,
    };
  }

  private closeRound(): ReplayedRound {
    const o = this.open!;
    this.open = null;
    const view = buildRoundView(o.roundId, o.events, o.context, o.pools);
    const derivation = o.events.length ? checkRound(view) : emptyDerivation(o.roundId);
    const first = o.events[0]?.data.header;
    const ctx: FindingContext = {
      ruleSet: derivation.ruleSet ?? 'none',
      casino: first?.casino ?? '',
      concessionaire: first?.concessionaire ?? '',
      tableId: this.tableId,
      roundId: o.roundId,
    };
    const findings = [...derivation.findings];
    if (derivation.ruleSet && derivation.notDerived?.includes('not implemented') !== true) {
      for (const p of o.pending) findings.push(makeFinding(ctx, p));
      if (this.carryOver) findings.push(...this.checkCarryOver(view));
    }
    this.carryOver = derivation.carryOverDue.length
      ? {
          ctx,
          due: derivation.carryOverDue,
          evidence: view.voided
            ? [{ eventId: view.voided.header.eventId, eventTime: view.voided.header.eventTime }]
            : [],
        }
      : null;
    if (derivation.completedNormally) {
      this.consecutiveFailures = 0;
      this.lastFailureEvidence = [];
    }
    if (derivation.settlement) {
      findings.push(...this.trackProgressions(view, derivation, ctx));
      this.collusion.record(view, derivation, ctx);
      findings.push(...this.collusion.evaluate(false));
    }
    return { ...derivation, findings, tableId: this.tableId, view };
  }

  /** The Progressive bets a voided round had to carry over must be re-stated, carried over, in this round. */
  private checkCarryOver(next: RoundView): Finding[] {
    const c = this.carryOver!;
    this.carryOver = null;
    const missing = c.due.filter(
      (d) =>
        !next.betEvents.some(
          (b) => b.betType === 'PROGRESSIVE' && b.carriedOver && b.seat === d.seat && b.amount === d.amount,
        ),
    );
    if (!missing.length) return [];
    return [
      makeFinding(c.ctx, {
        check: C.irregJackpotNotCarried,
        seats: missing.map((m) => m.seat),
        summary: `Progressive bets of the voided round (${missing.map((m) => `seat ${m.seat}: ${m.amount}`).join(', ')}) were not carried over to round ${next.roundId}`,
        expected: missing,
        declared: next.betEvents
          .filter((b) => b.betType === 'PROGRESSIVE')
          .map((b) => ({ seat: b.seat, amount: b.amount, carriedOver: b.carriedOver })),
        evidence: [
          ...c.evidence,
          ...next.betEvents
            .slice(0, 1)
            .map((b) => ({ eventId: b.header.eventId, eventTime: b.header.eventTime })),
        ],
      }),
    ];
  }

  /** Art. 18.º n.º 1 indicator: Ante stakes that double after each loss and fall back to the base after a win. */
  private trackProgressions(view: RoundView, d: RoundDerivation, ctx: FindingContext): Finding[] {
    const out: Finding[] = [];
    for (const seat of d.settlement!.seats) {
      const bets = view.bets.get(seat.seat);
      if (!bets || bets.ante === 0 || bets.players.size !== 1) continue;
      const player = [...bets.players][0]!;
      const ante = d.settlement!.lines.find((l) => l.seat === seat.seat && l.bet === 'ante')!;
      const result: ProgressionRun['lastResult'] =
        ante.outcome === 'win' ? 'win' : ante.outcome === 'lose' ? 'lose' : 'push';
      const stake = bets.ante;
      const anteEvent = view.betEvents.find((b) => b.seat === seat.seat && b.betType === 'ANTE')!;
      const evidence = { eventId: anteEvent.header.eventId, eventTime: anteEvent.header.eventTime };
      const run = this.progressions.get(player);
      const consistent =
        run &&
        ((run.lastResult === 'lose' && stake === 2 * run.lastStake) ||
          (run.lastResult !== 'lose' && stake === run.base));
      if (!run || !consistent) {
        this.progressions.set(player, {
          base: stake,
          lastStake: stake,
          lastResult: result,
          steps: 0,
          doublings: 0,
          reported: false,
          evidence: [evidence],
          rounds: [view.roundId],
        });
        continue;
      }
      run.steps++;
      if (run.lastResult === 'lose') run.doublings++;
      run.lastStake = stake;
      run.lastResult = result;
      run.evidence.push(evidence);
      run.rounds.push(view.roundId);
      if (
        !run.reported &&
        run.steps >= this.options.bettingSystemRun &&
        run.doublings >= this.options.bettingSystemDoublings
      ) {
        run.reported = true;
        out.push(
          makeFinding(ctx, {
            check: C.conductBettingSystem,
            discriminator: player,
            seats: [seat.seat],
            players: [player],
            summary: `player ${player}: ${run.steps} consecutive Ante stakes doubled after each loss (${run.doublings} times) and fell back to ${run.base} after each win`,
            declared: { base: run.base, steps: run.steps, doublings: run.doublings },
            details: { rounds: [...run.rounds] },
            evidence: [...run.evidence],
          }),
        );
      }
    }
    return out;
  }
}

function emptyDerivation(roundId: string): RoundDerivation {
  return {
    roundId,
    ruleSet: null,
    notDerived: 'no events',
    facts: null,
    settlement: null,
    findings: [],
    carryOverDue: [],
    completedNormally: false,
  };
}
