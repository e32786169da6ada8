import {
  classifyThree,
  f3cpRules,
  playDecisionOracle,
  rankOf,
  type Card,
  type PlayDecisionOracle,
} from '@table-audit/rules';
import { F3CP_CHECKS as C } from './checks.ts';
import { makeFinding, type Finding, type FindingContext } from './finding.ts';
import type { RoundDerivation } from './round-checks.ts';
import type { RoundView } from './round-view.ts';

/**
 * F3CP.CONDUCT.COLLUSION (art. 18.º n.º 3). For each group of players who sit side by side (two or three adjacent
 * seats), every Play/Fold decision is compared with the best decision given the player's own cards and with the
 * best decision given all the group's cards. Where the two differ (an informative decision), an honest player
 * has no reason to follow the group's cards more often than by chance; a binomial test against p = 1/2 measures
 * how much better the group's cards explain the decisions, with a Bonferroni correction over the groups tested.
 */
export interface CollusionOptions {
  /** rounds a group must have played together before it is tested */
  minRounds: number;
  /** family-wise significance level */
  alpha: number;
  /** re-test a group every this many rounds together (and at the end) */
  evaluateEvery: number;
}

interface Decision {
  roundId: string;
  player: string;
  seat: number;
  own: boolean;
  group: boolean;
  actual: boolean;
  evidence: { eventId: string; eventTime: number };
}

interface GroupStats {
  players: string[];
  seats: number[];
  rounds: number;
  informative: Decision[];
  ctx: FindingContext;
  reported: boolean;
}

/** Hands that knowing six other cards can move across the play/fold line: three odd cards up to Queen-high. */
const canFlip = (cards: readonly Card[]): boolean => {
  const classified = classifyThree(cards[0]!, cards[1]!, cards[2]!);
  return classified >> 12 === 0 && Math.max(...cards.map(rankOf)) <= 10;
};

export class CollusionTracker {
  private readonly groups = new Map<string, GroupStats>();

  constructor(private readonly options: CollusionOptions) {}

  record(view: RoundView, d: RoundDerivation, ctx: FindingContext): void {
    if (!d.settlement || !d.facts || !d.ruleSet) return;
    const oracle = this.oracle(d.ruleSet);
    const seats = d.facts.seats
      .filter((s) => s.decision !== undefined && (view.bets.get(s.seat)?.players.size ?? 0) === 1)
      .sort((a, b) => a.seat - b.seat);
    for (let w = 2; w <= 3; w++) {
      for (let i = 0; i + w <= seats.length; i++) {
        const members = seats.slice(i, i + w);
        if (members[w - 1]!.seat - members[0]!.seat !== w - 1) continue; // side by side only
        const players = members.map((m) => [...view.bets.get(m.seat)!.players][0]!);
        if (new Set(players).size !== w) continue;
        const key = players.join('|');
        let g = this.groups.get(key);
        if (!g)
          this.groups.set(
            key,
            (g = {
              players,
              seats: members.map((m) => m.seat),
              rounds: 0,
              informative: [],
              ctx,
              reported: false,
            }),
          );
        g.rounds++;
        g.ctx = { ...ctx, roundId: null };
        for (const m of members) {
          if (!canFlip(m.cards)) continue;
          const others = members.filter((x) => x !== m).flatMap((x) => x.cards);
          const own = oracle.plays(m.cards, []);
          const group = oracle.plays(m.cards, others);
          if (own === group) continue;
          const decision = view.decisions.get(m.seat)!;
          g.informative.push({
            roundId: view.roundId,
            player: players[members.indexOf(m)]!,
            seat: m.seat,
            own,
            group,
            actual: m.decision === 'play',
            evidence: { eventId: decision.header.eventId, eventTime: decision.header.eventTime },
          });
        }
      }
    }
  }

  /** Findings for groups whose decisions the group's cards explain significantly better; each group once. */
  evaluate(final: boolean): Finding[] {
    const tested = [...this.groups.values()].filter((g) => g.rounds >= this.options.minRounds);
    const out: Finding[] = [];
    for (const g of tested) {
      if (g.reported || (!final && g.rounds % this.options.evaluateEvery !== 0)) continue;
      const n = g.informative.length;
      const k = g.informative.filter((x) => x.actual === x.group).length;
      if (n === 0) continue;
      const p = binomialUpperTail(n, k);
      if (p * tested.length >= this.options.alpha) continue;
      g.reported = true;
      out.push(
        makeFinding(g.ctx, {
          check: C.conductCollusion,
          discriminator: g.players.join('|'),
          seats: g.seats,
          players: g.players,
          summary: `players ${g.players.join(', ')} (seats ${g.seats.join(', ')}): in ${k} of ${n} decisions where their own cards and the group's cards called for different plays, they followed the group's cards (binomial p = ${p.toExponential(2)}, ${g.rounds} rounds together, ${tested.length} groups tested)`,
          expected: "decisions explained by each player's own cards",
          declared: { informativeDecisions: n, followedGroupCards: k },
          details: {
            pValue: p,
            bonferroniGroups: tested.length,
            roundsTogether: g.rounds,
            informativeDecisions: n,
            followedGroupCards: k,
            rounds: [...new Set(g.informative.map((x) => x.roundId))],
          },
          evidence: g.informative.slice(0, 200).map((x) => x.evidence),
        }),
      );
    }
    return out;
  }

  private oracle(ruleSet: string): PlayDecisionOracle {
    return playDecisionOracle(f3cpRules(ruleSet));
  }
}

/** P(X >= k) for X ~ Binomial(n, 1/2), summed in log space so large n does not underflow. */
export function binomialUpperTail(n: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  let logPmf = -n * Math.LN2; // P(X = n)
  let logSum = logPmf;
  for (let i = n; i > k; i--) {
    logPmf += Math.log(i / (n - i + 1)); // P(X = i - 1) from P(X = i)
    logSum = logAdd(logSum, logPmf);
  }
  return Math.min(1, Math.exp(logSum));
}

const logAdd = (a: number, b: number): number =>
  a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
