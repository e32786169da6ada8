/** A disputed CRAPS throw, step by step: the throw, the point, each bet with its article, expected beside declared. */
import { formatCitation } from '../citations/citation.ts';
import type { Finding } from '../findings.ts';
import { formatMacauTime, formatMop } from '../present.ts';
import type { CrapsThrowUnit } from './table.ts';

export interface CrapsExplanation {
  readonly throwId: string;
  /** the throw's time, UTC ms, and as Macau time for people */
  readonly time: number;
  readonly macauTime: string;
  readonly tableId: string;
  readonly ruleSet: string | null;
  readonly shooter: string;
  readonly faces: readonly number[];
  readonly sum: number;
  readonly pointBefore: number | null;
  readonly void: { readonly declared: boolean; readonly reason: string | null };
  readonly notDerived: string | null;
  readonly lines: readonly {
    betId: string;
    bet: string;
    stakeAvos: number;
    rule: string[];
    expected: string;
    expectedPayoutAvos: number;
    declared: string | null;
    declaredPayoutAvos: number | null;
  }[];
  readonly findings: readonly { checkId: string; summary: string; citations: string[] }[];
}

export function crapsExplanation(u: CrapsThrowUnit, later: readonly Finding[]): CrapsExplanation {
  const t = u.throwEvent;
  return {
    throwId: u.roundId,
    time: t.header.eventTime,
    macauTime: formatMacauTime(t.header.eventTime),
    tableId: u.tableId,
    ruleSet: u.ruleSet,
    shooter: t.shooterId,
    faces: t.faces,
    sum: t.faces.reduce((a, b) => a + b, 0),
    pointBefore: u.pointBefore,
    void: { declared: t.declaredVoid, reason: t.voidReason },
    notDerived: u.notDerived ? `${u.notDerived.code}: ${u.notDerived.message}` : null,
    lines: u.lines.map((l) => ({
      betId: l.betId,
      bet: l.bet,
      stakeAvos: l.stake,
      rule: l.citations.map(formatCitation),
      expected: l.judged ? (l.outcome ?? 'STAYS') : 'NOT JUDGED (no rule of 53/2010 settles it)',
      expectedPayoutAvos: l.payout,
      declared: l.declared ? l.declared.outcome : null,
      declaredPayoutAvos: l.declared ? l.declared.payout : null,
    })),
    findings: [...u.findings, ...later.filter((f) => f.roundId === u.roundId)].map((f) => ({
      checkId: f.checkId,
      summary: f.summary,
      citations: f.citations.map((c) => c.reference),
    })),
  };
}

export function crapsExplanationText(x: CrapsExplanation): string {
  const out = [
    `throw ${x.throwId} at table ${x.tableId}, ${x.macauTime}, rule set ${x.ruleSet ?? '(none)'}`,
    `shooter ${x.shooter}; dice ${x.faces.join('-')} = ${x.sum}; point before the throw: ${x.pointBefore ?? 'off (come-out)'}`,
  ];
  if (x.notDerived) out.push(`not derived: ${x.notDerived}`);
  if (x.void.declared || x.void.reason)
    out.push(
      `void: ${x.void.declared ? 'declared void' : 'NOT declared void'}${x.void.reason ? `, cause seen: ${x.void.reason}` : ''} (Despacho n.º 53/2010, art. 3.º, n.º 2)`,
    );
  for (const l of x.lines)
    out.push(
      `  ${l.bet} ${l.betId}, stake ${formatMop(l.stakeAvos)}: rules ${l.expected}${l.expected === 'WIN' ? ` ${formatMop(l.expectedPayoutAvos)}` : ''}; ` +
        `declared ${l.declared ?? 'nothing'}${l.declared === 'WIN' ? ` ${formatMop(l.declaredPayoutAvos ?? 0)}` : ''} [${l.rule.join('; ')}]`,
    );
  for (const f of x.findings) out.push(`  finding ${f.checkId}: ${f.summary} (${f.citations.join('; ')})`);
  return out.join('\n');
}
