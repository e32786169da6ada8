/**
 * The 13 Cards fold: one table's events, in order, into rounds (RoundStarted … RoundSettled or RoundVoided), each
 * translated into its facts (events.ts) and judged by every THIRTEEN. check under thirteen-cards-1989 with the
 * table's payout settings (TableOpened.thirteenCards, interpretation T2). Events of no open round are counted in
 * `unassigned` (the first ones kept in memory); the store keeps them all.
 */
import type { TableOpened, ThirteenEvent } from '@table-audit/schemas/events';
import { makeFinding, type Finding, type FindingContext } from '../findings.ts';
import type { DerivedUnit, NotDerived, RoundRecord, TableFold } from '../game.ts';
import { ruleSetFor } from '../registry.ts';
import { judgeThirteenRound } from './checks/index.ts';
import { payoutOf, roundFromEvents } from './events.ts';
import { explainThirteenRound } from './explain.ts';
import { thirteenRoundRecord } from './round-record.ts';
import type { ThirteenRuleSet } from './rule-set.ts';
import type { ThirteenRound } from './round.ts';
import { settleThirteenRound, type SettledRound } from './settle.ts';
import { UnassignedEvents } from '../unassigned.ts';

/** A judged 13 Cards round. */
export interface ThirteenRoundUnit extends DerivedUnit {
  readonly events: readonly ThirteenEvent[];
  readonly facts: ThirteenRound | null;
  readonly rules: ThirteenRuleSet | null;
  readonly settled: SettledRound | null;
  readonly voided: boolean;
  readonly startTime: number;
  readonly casino: string;
  readonly concessionaire: string;
  readonly dealerId: string | null;
  record: RoundRecord | null;
}

const NONE: ThirteenRoundUnit[] = [];

export class ThirteenTable implements TableFold<ThirteenRoundUnit> {
  private config: TableOpened | null = null;
  private open: { roundId: string; events: ThirteenEvent[] } | null = null;
  /** events that belong to no open round (kept, never dropped) */
  readonly unassigned = new UnassignedEvents<ThirteenEvent>();

  constructor(readonly tableId: string) {}

  apply(e: ThirteenEvent): ThirteenRoundUnit[] {
    switch (e.type) {
      case 'TableOpened':
        this.config = e.data;
        return NONE;
      case 'TableClosed':
        return this.open ? [this.close()] : NONE;
      case 'RoundStarted': {
        const done = this.open ? [this.close()] : [];
        this.open = { roundId: e.data.header.roundId ?? e.data.header.eventId, events: [e] };
        return done;
      }
      case 'RoundSettled':
      case 'RoundVoided':
        if (this.open && e.data.header.roundId === this.open.roundId) {
          this.open.events.push(e);
          return [this.close()];
        }
        this.unassigned.push(e);
        return NONE;
      default:
        if (this.open && e.data.header.roundId === this.open.roundId) this.open.events.push(e);
        else this.unassigned.push(e);
        return NONE;
    }
  }

  finish(): { units: ThirteenRoundUnit[]; findings: Finding[] } {
    return { units: this.open ? [this.close()] : [], findings: [] };
  }

  explain(unit: DerivedUnit, later: readonly Finding[]): { json: object; text: string } {
    const u = unit as ThirteenRoundUnit;
    const findings = [...u.findings, ...later.filter((f) => f.roundId === u.roundId)];
    const lines = findings.map((f) => `finding ${f.checkId}: ${f.summary}`);
    if (!u.facts || !u.rules) {
      const why = u.notDerived ? `${u.notDerived.code}: ${u.notDerived.message}` : 'no facts';
      return {
        json: { roundId: u.roundId, tableId: u.tableId, notDerived: u.notDerived, findings },
        text: [`13 Cards round ${u.roundId} at table ${u.tableId}: not derived (${why})`, ...lines].join(
          '\n',
        ),
      };
    }
    const x = explainThirteenRound(u.facts, u.rules);
    return { json: { ...x.json, findings }, text: [x.text, ...lines].join('\n') };
  }

  private close(): ThirteenRoundUnit {
    const { roundId, events } = this.open!;
    this.open = null;
    const first = events[0]!.data.header;
    const voided = events.some((e) => e.type === 'RoundVoided');
    const lookup = ruleSetFor('thirteen-cards', first.eventTime);
    let notDerived: NotDerived | null = null;
    let rules: ThirteenRuleSet | null = null;
    let facts: ThirteenRound | null = null;
    let settled: SettledRound | null = null;
    let findings: Finding[] = [];
    const payout = payoutOf(this.config?.thirteenCards ?? null);
    if (lookup.status !== 'implemented')
      notDerived = {
        code: lookup.status === 'no-rules' ? 'no-rules' : 'rule-set-not-implemented',
        message: lookup.reason,
      };
    else if (!payout)
      notDerived = {
        code: 'no-rules',
        message: 'no TableOpened with 13 Cards payout settings (thirteenCards) came before the round',
      };
    else if (voided) notDerived = { code: 'voided', message: 'the table voided the round' };
    else {
      rules = { ...lookup.rules, payout };
      try {
        facts = roundFromEvents(roundId, this.tableId, events);
        if (!facts)
          notDerived = {
            code: 'cards-incomplete',
            message: 'no DiceShaken: nothing says where the deal starts',
          };
        else {
          const judged = judgeThirteenRound(facts, rules);
          settled = judged.settled;
          const ctx: FindingContext = {
            ruleSet: rules.id,
            casino: first.casino,
            concessionaire: first.concessionaire,
            tableId: this.tableId,
            roundId,
          };
          findings = judged.findings.map((f) => makeFinding(ctx, f));
        }
      } catch (err) {
        notDerived = { code: 'derivation-failed', message: (err as Error).message };
        facts = null;
      }
    }
    if (facts && !settled && rules) settled = settleThirteenRound(facts, rules);
    const unit: ThirteenRoundUnit = {
      roundId,
      tableId: this.tableId,
      ruleSet: lookup.status === 'implemented' && payout ? lookup.rules.id : null,
      notDerived,
      findings,
      events,
      facts,
      rules,
      settled,
      voided,
      startTime: first.eventTime,
      casino: first.casino,
      concessionaire: first.concessionaire,
      dealerId: first.staffId,
      record: null,
    };
    unit.record = thirteenRoundRecord(unit);
    return unit;
  }
}
