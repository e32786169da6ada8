import { rankOf, type Card } from '../../cards.ts';
import { cite } from '../../citations/citation.ts';
import { defineCheck, makeFinding, type Finding, type FindingContext } from '../../findings.ts';
import { classifyThree } from '../../poker/three-card.ts';
import { playDecisionOracle } from '../math/index.ts';
import { F3CP_2025A, F3CP_2025_DIPLOMA as D, type F3cpRuleSet } from '../rule-set.ts';
import type { SettledRound } from '../round.ts';

export const conductCollusion = defineCheck(
  'F3CP.CONDUCT.COLLUSION',
  "a group's decisions follow the cards of the whole group (statistical)",
  'high',
  [cite(D, 18, { numero: 3 })],
);

/**
 * F3CP.CONDUCT.COLLUSION (art. 18.º n.º 3). For each group of players who sit side by side (two or three adjacent
 * seats), every Play/Fold decision is compared with the best decision given the player's own cards and with the
 * best decision given all the group's cards. Where the two differ (an informative decision), an honest player
 * has no reason to follow the group's cards more often than by chance; a binomial test against p = 1/2 measures
 * how much better the group's cards explain the decisions, with a Bonferroni correction over the groups tested.
 */
export interface CollusionOptions {
  /** false switches the statistical check off (e.g. for a quick re-check of payouts only) */
  enabled?: boolean;
  /** rounds a group must have played together before it is tested */
  minRounds: number;
  /** family-wise significance level */
  alpha: number;
  /** re-test a group every this many rounds together (and at the end) */
  evaluateEvery: number;
}

/** A finding names at most this many decisions as its evidence (the first ones). */
const EVIDENCE_KEPT = 200;

/**
 * What a group keeps of its informative decisions (those where its own cards and the group's called for different
 * plays): how many, how many followed the group's cards, the first EVIDENCE_KEPT as evidence and the rounds they
 * were in, not one record per decision. Once the group is reported it records none.
 */
interface GroupStats {
  players: string[];
  seats: number[];
  rounds: number;
  informative: number;
  followedGroup: number;
  /** null until the group's first informative decision (most groups of a table have few or none) */
  evidence: { eventId: string; eventTime: number }[] | null;
  /** the rounds of the informative decisions, in the order first seen (null until the first) */
  informativeRounds: Set<string> | null;
  ctx: FindingContext;
  reported: boolean;
}

/** Hands that knowing six other cards can move across the play/fold line: three odd cards up to Queen-high. */
function canFlip(cards: readonly Card[]): boolean {
  const classified = classifyThree(cards[0]!, cards[1]!, cards[2]!);
  return (
    classified >> 12 === 0 && rankOf(cards[0]!) <= 10 && rankOf(cards[1]!) <= 10 && rankOf(cards[2]!) <= 10
  );
}

interface Member {
  seat: number;
  player: string;
  cards: readonly Card[];
  plays: boolean;
  /** canFlip(cards) */
  flips: boolean;
  /** the best decision on the player's own cards (only when flips) */
  own: boolean;
}

/** canFlip by hand index (0 not yet known, 1 no, 2 yes): a replay asks it for every decision of every group. */
const FLIPS = new Uint8Array(22_100);

/** The group last seen at a window of seats, kept while the same players sit there (null: not a group). */
interface WindowMemo {
  players: string[];
  group: GroupStats | null;
}

/** Builds the decision tables the tracker can need, so that no live round pays for them. */
export function warmCollusionTables(ruleSets: readonly F3cpRuleSet[] = [F3CP_2025A]): number {
  return ruleSets.reduce((n, rules) => n + playDecisionOracle(rules).warm(canFlip), 0);
}

export class CollusionTracker {
  private readonly groups = new Map<string, GroupStats>();
  /** groups that have played together long enough to be tested (the Bonferroni family) */
  private tested = 0;
  /** groups to re-test at the next evaluation */
  private due: GroupStats[] = [];
  private readonly others: Card[] = [0, 0, 0, 0, 0, 0];
  private readonly members: Member[] = [];
  /** by w * 8 + first seat: the group last seen there */
  private readonly windows: (WindowMemo | undefined)[] = [];

  constructor(private readonly options: CollusionOptions) {}

  record(r: SettledRound, ctx: FindingContext): void {
    if (this.options.enabled === false) return;
    const view = r.view;
    const oracle = playDecisionOracle(r.ruleSet);
    const members = this.members;
    members.length = 0;
    for (const s of r.facts.seats) {
      const players = view.bets.get(s.seat)?.players;
      if (s.decision === undefined || !players || players.size !== 1) continue;
      const cards = s.cards;
      const hand = oracle.handOf(cards[0]!, cards[1]!, cards[2]!);
      let f = FLIPS[hand]!;
      if (f === 0) FLIPS[hand] = f = canFlip(cards) ? 2 : 1;
      const flips = f === 2;
      members.push({
        seat: s.seat,
        player: players.values().next().value!,
        cards,
        plays: s.decision === 'play',
        flips,
        own: flips && oracle.playsAlone(hand),
      });
    }
    let sorted = true;
    for (let i = 1; i < members.length && sorted; i++) sorted = members[i - 1]!.seat <= members[i]!.seat;
    if (!sorted) members.sort((a, b) => a.seat - b.seat);
    const others = this.others;
    for (let w = 2; w <= 3; w++) {
      for (let i = 0; i + w <= members.length; i++) {
        if (members[i + w - 1]!.seat - members[i]!.seat !== w - 1) continue; // side by side only
        const g = this.groupAt(w, i);
        if (!g) continue;
        g.rounds++;
        g.ctx = ctx;
        if (g.rounds === this.options.minRounds) this.tested++;
        if (!g.reported && g.rounds >= this.options.minRounds && g.rounds % this.options.evaluateEvery === 0)
          this.due.push(g);
        if (g.reported) continue; // reported once: its later decisions change nothing
        for (let k = 0; k < w; k++) {
          const m = members[i + k]!;
          if (!m.flips) continue;
          let n = 0;
          for (let j = 0; j < w; j++) {
            if (j === k) continue;
            const c = members[i + j]!.cards;
            others[n++] = c[0]!;
            others[n++] = c[1]!;
            others[n++] = c[2]!;
          }
          const own = m.own;
          const group = oracle.playsKnowing(m.cards, others, n);
          if (own === group) continue;
          g.informative++;
          if (m.plays === group) g.followedGroup++;
          (g.informativeRounds ??= new Set()).add(view.roundId);
          g.evidence ??= [];
          if (g.evidence.length < EVIDENCE_KEPT) {
            const decision = view.decisions.get(m.seat)!;
            g.evidence.push({ eventId: decision.header.eventId, eventTime: decision.header.eventTime });
          }
        }
      }
    }
  }

  /** The group of the w members from members[i] (side by side), or null when a player sits twice in it. */
  private groupAt(w: number, i: number): GroupStats | null {
    const members = this.members;
    const memoKey = w * 8 + members[i]!.seat;
    const memo = this.windows[memoKey];
    if (memo) {
      let same = true;
      for (let k = 0; k < w && same; k++) same = memo.players[k] === members[i + k]!.player;
      if (same) return memo.group;
    }
    const players: string[] = [];
    for (let k = 0; k < w; k++) players.push(members[i + k]!.player);
    const key = players.join('|');
    let g = this.groups.get(key) ?? null;
    if (!g && new Set(players).size === w) {
      g = {
        players: [...players],
        seats: members.slice(i, i + w).map((m) => m.seat),
        rounds: 0,
        informative: 0,
        followedGroup: 0,
        evidence: null,
        informativeRounds: null,
        ctx: null!,
        reported: false,
      };
      this.groups.set(key, g);
    }
    this.windows[memoKey] = { players, group: g };
    return g;
  }

  /** Findings for groups whose decisions the group's cards explain significantly better; each group once. */
  evaluate(final: boolean, out: Finding[] = []): Finding[] {
    if (!final && this.due.length === 0) return out;
    const candidates = final
      ? [...this.groups.values()].filter((g) => g.rounds >= this.options.minRounds)
      : this.due;
    this.due = [];
    for (const g of candidates) {
      if (g.reported) continue;
      const n = g.informative;
      const k = g.followedGroup;
      if (n === 0) continue;
      const p = binomialUpperTail(n, k);
      if (p * this.tested >= this.options.alpha) continue;
      g.reported = true;
      out.push(
        makeFinding(
          { ...g.ctx, roundId: null },
          {
            check: conductCollusion,
            discriminator: g.players.join('|'),
            seats: g.seats,
            players: g.players,
            summary: `players ${g.players.join(', ')} (seats ${g.seats.join(', ')}): in ${k} of ${n} decisions where their own cards and the group's cards called for different plays, they followed the group's cards (binomial p = ${p.toExponential(2)}, ${g.rounds} rounds together, ${this.tested} groups tested)`,
            expected: "decisions explained by each player's own cards",
            declared: { informativeDecisions: n, followedGroupCards: k },
            details: {
              pValue: p,
              bonferroniGroups: this.tested,
              roundsTogether: g.rounds,
              informativeDecisions: n,
              followedGroupCards: k,
              rounds: [...(g.informativeRounds ?? [])],
            },
            evidence: g.evidence ? g.evidence.slice() : [],
          },
        ),
      );
    }
    return out;
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
