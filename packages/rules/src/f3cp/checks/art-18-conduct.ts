import type { SeatVacated } from '@table-audit/schemas/events';
import { cite } from '../../citations/citation.ts';
import {
  defineCheck,
  evidenceOf,
  type Evidence,
  type Finding,
  type FindingContext,
  type FindingInput,
  makeFinding,
} from '../../findings.ts';
import { formatMop } from '../../present.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';
import type { JudgedRound, SettledRound } from '../round.ts';
import { observed, type ObservationRule } from './observations.ts';

/** Art. 18.º: prohibited behaviour, from surveillance and seat-sensor events and from betting data. */

export const conductRecording = defineCheck(
  'F3CP.CONDUCT.RECORDING',
  'recording, prediction or strategy device or notes observed',
  'medium',
  [cite(D, 18, { numero: 1 })],
);

export const conductBettingSystem = defineCheck(
  'F3CP.CONDUCT.BETTING_SYSTEM',
  'stakes follow a progression driven by prior results (indicator)',
  'low',
  [cite(D, 18, { numero: 1 })],
);

export const conductLeftSeat = defineCheck(
  'F3CP.CONDUCT.LEFT_SEAT',
  'seated player left the seat during a round',
  'medium',
  [cite(D, 18, { numero: 2 })],
  ['J21'],
);

export const conductCardReveal = defineCheck(
  'F3CP.CONDUCT.CARD_REVEAL',
  'cards revealed to third parties during a round',
  'high',
  [cite(D, 18, { numero: 2 }), cite(D, 18, { numero: 3 })],
  ['J16'],
);

export const RECORDING_OBSERVED: ObservationRule = {
  check: conductRecording,
  kinds: new Set(['RECORDING_DEVICE', 'NOTES', 'PREDICTION_OR_STRATEGY']),
};

export const CARD_REVEAL_OBSERVED: ObservationRule = {
  check: conductCardReveal,
  kinds: new Set(['CARD_SHOWN_TO_THIRD_PARTY', 'SIGNALLING']),
};

export const checkRecording = (r: JudgedRound): FindingInput[] => observed(r, RECORDING_OBSERVED);

export const checkCardReveal = (r: JudgedRound): FindingInput[] => observed(r, CARD_REVEAL_OBSERVED);

/** Art. 18.º n.º 2: a player with bets stays seated from the first card until the seat is settled. */
export function checkLeftSeat(r: JudgedRound): FindingInput[] {
  const first = r.view.dealt[0];
  const moved = r.ruleSet.alternatives.length > 0 && r.ruleSet.alternatives.includes('J21');
  return r.view.vacatedDuringPlay
    .filter((x) => r.hasBets(x.seat) && !(moved && changedSeat(r, x)))
    .map((s) => ({
      check: conductLeftSeat,
      discriminator: `${s.seat}:${s.header.eventId}`,
      seats: [s.seat],
      players: [s.playerId],
      summary: `player ${s.playerId} left seat ${s.seat} after the first card and before the seat was settled`,
      evidence: [evidenceOf(s), ...(first ? [evidenceOf(first)] : [])],
    }));
}

/**
 * J21's alternative, the ZH text: the player may not leave "博彩桌" (the gaming table). A seat vacated and, before
 * the round ended, a seat of the same table taken by the same player (SeatOccupied after the SeatVacated) is a
 * change of seat, not leaving the table. A player who sits again only after the round, or at the same seat, is
 * still judged as having left: the seat sensor does not show that they stayed at the table meanwhile.
 */
export function changedSeat(r: JudgedRound, vacated: SeatVacated): boolean {
  const events = r.view.events;
  let after = false;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.data === vacated) after = true;
    else if (
      after &&
      e.type === 'SeatOccupied' &&
      e.data.playerId === vacated.playerId &&
      e.data.seat !== vacated.seat
    )
      return true;
  }
  return false;
}

export interface BettingSystemOptions {
  /** consecutive consistent steps of a result-driven progression before BETTING_SYSTEM is raised */
  readonly run: number;
  /** of which at least this many must be doublings after a loss */
  readonly doublings: number;
}

interface ProgressionRun {
  base: number;
  lastStake: number;
  lastResult: 'win' | 'lose' | 'push';
  steps: number;
  doublings: number;
  reported: boolean;
  evidence: Evidence[];
  rounds: string[];
}

/**
 * Art. 18.º n.º 1 indicator, across a table's rounds: a player's Ante stakes that double after each loss and fall
 * back to the base after a win (a martingale), over a configurable run.
 */
export class BettingSystemTracker {
  private readonly runs = new Map<string, ProgressionRun>();

  constructor(private readonly options: BettingSystemOptions) {}

  /** Follows the round's Ante stakes; appends a finding to `out` for each progression that has become one. */
  record(r: SettledRound, ctx: FindingContext, out: Finding[] = []): Finding[] {
    for (const seat of r.settlement.seats) {
      const bets = r.view.bets.get(seat.seat);
      if (!bets || bets.ante === 0 || bets.players.size !== 1) continue;
      const player: string = bets.players.values().next().value!;
      const ante = r.settlement.lines.find((l) => l.seat === seat.seat && l.bet === 'ante')!;
      const result: ProgressionRun['lastResult'] =
        ante.outcome === 'win' ? 'win' : ante.outcome === 'lose' ? 'lose' : 'push';
      const stake = bets.ante;
      const anteEvent = r.view.betEvents.find((b) => b.seat === seat.seat && b.betType === 'ANTE')!;
      const evidence = evidenceOf(anteEvent);
      const run = this.runs.get(player);
      const consistent =
        run &&
        ((run.lastResult === 'lose' && stake === 2 * run.lastStake) ||
          (run.lastResult !== 'lose' && stake === run.base));
      if (!run) {
        this.runs.set(player, {
          base: stake,
          lastStake: stake,
          lastResult: result,
          steps: 0,
          doublings: 0,
          reported: false,
          evidence: [evidence],
          rounds: [r.view.roundId],
        });
        continue;
      }
      if (!consistent) {
        // a new run from this stake, in the player's record (a finding copies what it keeps of a run)
        run.base = stake;
        run.lastStake = stake;
        run.lastResult = result;
        run.steps = 0;
        run.doublings = 0;
        run.reported = false;
        run.evidence = [evidence];
        run.rounds = [r.view.roundId];
        continue;
      }
      run.steps++;
      if (run.lastResult === 'lose') run.doublings++;
      run.lastStake = stake;
      run.lastResult = result;
      // a run already reported keeps only its counts: its evidence and rounds are in the finding, and are read
      // again only after a new run replaces them
      if (run.reported) continue;
      run.evidence.push(evidence);
      run.rounds.push(r.view.roundId);
      if (run.steps < this.options.run || run.doublings < this.options.doublings) continue;
      run.reported = true;
      out.push(
        makeFinding(ctx, {
          check: conductBettingSystem,
          discriminator: player,
          seats: [seat.seat],
          players: [player],
          summary: `player ${player}: ${run.steps} consecutive Ante stakes doubled after each loss (${run.doublings} times) and fell back to ${formatMop(run.base)} after each win`,
          declared: { base: run.base, steps: run.steps, doublings: run.doublings },
          details: { rounds: [...run.rounds] },
          evidence: [...run.evidence],
        }),
      );
    }
    return out;
  }
}
