import { formatCitation, type Citation } from '../citations/citation.ts';
import type { Finding } from '../findings.ts';
import type { NotDerived } from '../game.ts';
import { formatMacauTime, formatMop, utcText } from '../present.ts';
import { macauDate, ruleSetById } from '../registry.ts';
import type { F3cpEvent } from '@table-audit/schemas/events';
import { declaredKey, LINE_TYPE } from './events.ts';
import { voidedBetHandling, voidingConditions } from './checks/art-17-irregularities.ts';
import type { ReplayedRound } from './table.ts';

/** A disputed hand, step by step: every event, every rule applied with its article, expected beside declared. */
export interface Explanation {
  roundId: string;
  tableId: string;
  casino: string;
  ruleSet: { id: string; diplomas: readonly string[]; why: string } | null;
  notDerived: NotDerived | null;
  dealingMode: string;
  steps: { time: string; eventId: string; type: string; text: string }[];
  banker: { cards: string[]; hand: string; qualifies: boolean; citations: Cited[] } | null;
  /** the community cards dealt, in deal order (the Progressive Jackpot hand uses them) */
  community: string[];
  seats: {
    seat: number;
    cards: string[];
    hand: string;
    decision: string | null;
    versusBanker: string | null;
  }[];
  lines: {
    seat: number;
    bet: string;
    stake: number;
    expected: { outcome: string; payout: number; net: number };
    declared: { payout: number; collected: number; returned: number } | null;
    basis: string;
    citations: Cited[];
    interpretations: readonly string[];
  }[];
  jackpot: {
    poolBefore: number;
    poolAfter: number;
    payments: {
      order: number;
      seat: number;
      hand: string;
      amount: number;
      poolBefore: number;
      poolAfter: number;
    }[];
  } | null;
  /** a voided round, judged for how it was voided (art. 17.º n.º 1–3) */
  voided: {
    reason: string;
    note: string | null;
    conditions: { what: string; citation: Cited }[];
    bets: {
      seat: number;
      betType: string;
      amount: number;
      expected: 'returned' | 'carried-over';
      declared: { payout: number; collected: number; returned: number };
      correct: boolean;
      citations: Cited[];
    }[];
  } | null;
  findings: Finding[];
}

interface Cited {
  key: string;
  reference: string;
}
const cited = (c: Citation): Cited => ({
  key: [
    c.diploma,
    `art.${c.article}`,
    c.numero && `n.${c.numero}`,
    c.alinea && `al.${c.alinea}`,
    c.subalinea && `sub.${c.subalinea}`,
    c.wording && `[${c.wording}]`,
  ]
    .filter(Boolean)
    .join(' '),
  reference: formatCitation(c),
});

/** The explanation of a replayed round; `later` are findings about it judged in later rounds (carry-over). */
export function explainF3cpRound(r: ReplayedRound, later: readonly Finding[]): Explanation {
  const v = r.view;
  const first = v.events[0]!.data.header;
  const s = r.settlement;
  const entry = r.ruleSet && r.ruleSet !== 'none' ? ruleSetById(r.ruleSet) : null;
  return {
    roundId: r.roundId,
    tableId: r.tableId,
    casino: `${first.casino} (${first.concessionaire})`,
    ruleSet: entry
      ? {
          id: entry.id,
          diplomas: entry.diplomas,
          why: `the round is dated ${macauDate(v.time)} in Macau (UTC+8); ${entry.id} governs ${entry.from} to ${entry.to ?? 'today'}`,
        }
      : null,
    notDerived: r.notDerived,
    dealingMode: v.context.dealingMode,
    steps: v.events.map((e) => ({
      time: utcText(e.data.header.eventTime),
      eventId: e.data.header.eventId,
      type: e.type,
      text: describeEvent(e),
    })),
    banker: s
      ? {
          cards: v.dealt.filter((d) => d.target === 'BANKER').map((d) => d.card),
          hand: s.banker.hand,
          qualifies: s.banker.qualifies,
          citations: s.banker.citations.map(cited),
        }
      : null,
    community: v.dealt.filter((d) => d.target === 'COMMUNITY').map((d) => d.card),
    seats: (s?.seats ?? []).map((x) => ({
      seat: x.seat,
      cards: v.dealt.filter((d) => d.target === 'SEAT' && d.seat === x.seat).map((d) => d.card),
      hand: x.hand,
      decision: x.decision,
      versusBanker: x.versusBanker,
    })),
    lines: (s?.lines ?? []).map((l) => {
      const d = v.declared.get(declaredKey(l.seat, LINE_TYPE[l.bet]));
      return {
        seat: l.seat,
        bet: l.bet,
        stake: l.amount,
        expected: { outcome: l.outcome, payout: l.payout, net: l.net },
        declared: d ? { payout: d.payout, collected: d.collected, returned: d.returned } : null,
        basis: l.basis,
        citations: l.citations.map(cited),
        interpretations: l.interpretations,
      };
    }),
    jackpot: s?.jackpot
      ? {
          poolBefore: s.jackpot.poolBefore,
          poolAfter: s.jackpot.poolAfter,
          payments: s.jackpot.payments.map((p) => ({
            order: p.order,
            seat: p.seat,
            hand: p.hand,
            amount: p.amount,
            poolBefore: p.poolBefore,
            poolAfter: p.poolAfter,
          })),
        }
      : null,
    voided:
      v.voided && r.judged
        ? {
            reason: v.voided.reason,
            note: v.voided.note,
            conditions: voidingConditions(r.judged).map((c) => ({
              what: c.what,
              citation: cited(c.citation),
            })),
            bets: voidedBetHandling(r.judged).map((b) => ({
              seat: b.seat,
              betType: b.betType,
              amount: b.amount,
              expected: b.expected,
              declared: {
                payout: b.declared.payout,
                collected: b.declared.collected,
                returned: b.declared.returned,
              },
              correct: b.correct,
              citations: b.citations.map(cited),
            })),
          }
        : null,
    findings: [...r.findings, ...later],
  };
}

function describeEvent(e: F3cpEvent): string {
  switch (e.type) {
    case 'RoundStarted':
      return `round ${e.data.roundNumber} started`;
    case 'BetPlaced':
      return `seat ${e.data.seat}: ${e.data.betType} ${formatMop(e.data.amount)}${e.data.playerId ? ` by ${e.data.playerId}` : ''}${e.data.carriedOver ? ' (carried over)' : ''}`;
    case 'CardDealt':
      return `card ${e.data.dealOrder}: ${e.data.card} to ${e.data.target === 'SEAT' ? `seat ${e.data.seat}` : e.data.target.toLowerCase()}${e.data.faceUp ? ', FACE UP' : ''}`;
    case 'CardExposed':
      return `${e.data.card} of ${e.data.target === 'SEAT' ? `seat ${e.data.seat}` : e.data.target.toLowerCase()} exposed${e.data.duringDeal ? ' during the deal' : ''}`;
    case 'PlayDecision':
      return `seat ${e.data.seat}: ${e.data.decision.toLowerCase()}`;
    case 'CommunityCardsRevealed':
      return `community cards revealed: ${e.data.cards.join(' ')}`;
    case 'OutcomeDeclared':
      return `declared: banker ${e.data.bankerHand}${e.data.bankerQualifies ? ', qualifies' : ', does not qualify'}; ${e.data.seats.map((x) => `seat ${x.seat} ${x.hand} ${x.result}`).join('; ')}`;
    case 'PayoutMade':
      return `seat ${e.data.seat}: paid ${formatMop(e.data.amount)} on ${e.data.betType}`;
    case 'BetCollected':
      return `seat ${e.data.seat}: ${e.data.betType} ${formatMop(e.data.amount)} collected`;
    case 'BetReturned':
      return `seat ${e.data.seat}: ${e.data.betType} ${formatMop(e.data.amount)} returned${e.data.reason ? ` (${e.data.reason})` : ''}`;
    case 'JackpotPaid':
      return `jackpot payment ${e.data.paymentOrder}: seat ${e.data.seat} ${e.data.hand} ${formatMop(e.data.amount)}, pool ${formatMop(e.data.poolBefore)} → ${formatMop(e.data.poolAfter)}`;
    case 'JackpotPoolChanged':
      return `jackpot pool ${formatMop(e.data.poolBefore)} → ${formatMop(e.data.poolAfter)} (${e.data.reason.toLowerCase()})`;
    case 'RoundVoided':
      return `round voided: ${e.data.reason}${e.data.note ? ` (${e.data.note})` : ''}`;
    case 'RoundSettled':
      return 'round settled';
    case 'ShufflerMalfunction':
      return `shuffler ${e.data.shufflerId} malfunction${e.data.duringDeal ? ' during the deal' : ''}: ${e.data.description}`;
    case 'SeatOccupied':
    case 'SeatVacated':
      return `seat ${e.data.seat} ${e.type === 'SeatOccupied' ? 'taken' : 'left'} by ${e.data.playerId}`;
    case 'SurveillanceObservation':
      return `surveillance: ${e.data.kind} at seat ${e.data.seat ?? '-'} (${e.data.confidence}%): ${e.data.description}`;
    default:
      return e.type;
  }
}

export function explanationText(x: Explanation): string {
  const out: string[] = [];
  out.push(`Round ${x.roundId} — table ${x.tableId}, ${x.casino}`);
  out.push(
    x.ruleSet
      ? `Rules: ${x.ruleSet.id} (Despacho ${x.ruleSet.diplomas.join(' + ')}); dealing from the ${x.dealingMode === 'SHOE' ? 'shoe' : 'automatic shuffler'}`
      : `Rules: none implemented for this round (${x.notDerived?.message ?? 'no rule set'})`,
  );
  const macau = x.steps.map((s) => {
    const t = Date.parse(s.time);
    return Number.isNaN(t) ? s.time : formatMacauTime(t); // a time that is not a date, shown as it is
  });
  out.push('', macau.length ? `Events, from ${macau[0]}:` : 'Events: none');
  x.steps.forEach((s, i) => out.push(`  ${macau[i]!.slice(11, 23)}  ${s.text}   [${s.eventId}]`));
  if (x.ruleSet) out.push(`  why: ${x.ruleSet.why}`);
  if (x.notDerived) out.push('', `Not re-derived: ${x.notDerived.message}`);
  if (x.voided) {
    out.push(
      '',
      `Voided (${x.voided.reason}${x.voided.note ? `: ${x.voided.note}` : ''}), judged under art. 17.º:`,
    );
    out.push(
      x.voided.conditions.length
        ? x.voided.conditions.map((c) => `  condition: ${c.what} — ${c.citation.reference}`).join('\n')
        : '  no condition of art. 17.º n.º 1 in the events',
    );
    for (const b of x.voided.bets) {
      const d = b.declared;
      const declared =
        [
          d.returned && `returned ${formatMop(d.returned)}`,
          d.collected && `collected ${formatMop(d.collected)}`,
          d.payout && `paid ${formatMop(d.payout)}`,
        ]
          .filter(Boolean)
          .join(', ') || 'nothing';
      out.push(
        `  seat ${b.seat} ${b.betType.padEnd(14)} ${formatMop(b.amount).padStart(13)}: ${b.expected === 'returned' ? 'to be returned' : 'carried to the next round'} | ${declared}${b.correct ? '' : '   ← WRONG'} — ${b.citations.map((c) => c.reference).join('; ')}`,
      );
    }
  }
  if (x.banker) {
    out.push('', 'Re-derived:');
    out.push(
      `  banker ${x.banker.cards.join(' ')}: ${x.banker.hand}, ${x.banker.qualifies ? 'qualifies (Q or higher)' : 'does not qualify (below Q)'} — ${x.banker.citations.map((c) => c.reference).join('; ')}`,
    );
    for (const s of x.seats)
      out.push(
        `  seat ${s.seat} ${s.cards.join(' ')}: ${s.hand}${s.decision ? `, ${s.decision}` : ''}${s.versusBanker ? `, ${s.versusBanker} than the banker` : ''}`,
      );
    out.push('', 'Settlement, expected | declared:');
    for (const l of x.lines) {
      const d = l.declared;
      const declared = d
        ? [
            d.payout && `paid ${formatMop(d.payout)}`,
            d.collected && `collected ${formatMop(d.collected)}`,
            d.returned && `returned ${formatMop(d.returned)}`,
          ]
            .filter(Boolean)
            .join(', ') || 'nothing'
        : 'nothing declared';
      out.push(
        `  seat ${l.seat} ${l.bet.padEnd(12)} stake ${formatMop(l.stake).padStart(13)}: ${l.expected.outcome.padEnd(4)} net ${formatMop(l.expected.net).padStart(14)} | ${declared}`,
      );
      out.push(
        `      ${l.basis}; ${l.citations.map((c) => c.reference).join('; ')}${l.interpretations.length ? ` [${l.interpretations.join(', ')}]` : ''}`,
      );
    }
  }
  if (x.jackpot?.payments.length) {
    out.push('', 'Progressive Jackpot, expected:');
    for (const p of x.jackpot.payments)
      out.push(
        `  ${p.order}. seat ${p.seat} ${p.hand}: ${formatMop(p.amount)} (pool ${formatMop(p.poolBefore)} → ${formatMop(p.poolAfter)})`,
      );
  }
  out.push('', x.findings.length ? `Findings (${x.findings.length}):` : 'Findings: none');
  for (const f of x.findings) {
    out.push(`  [${f.severity}] ${f.checkId}: ${f.summary}`);
    out.push(
      `      ${f.citations.map((c) => c.reference).join('; ')}${f.interpretations.length ? ` [${f.interpretations.join(', ')}]` : ''}; evidence ${f.evidenceEventIds.length} event(s); id ${f.findingId}`,
    );
  }
  return out.join('\n');
}
