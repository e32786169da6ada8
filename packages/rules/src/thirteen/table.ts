/**
 * The 13 Cards fold: one table's events, in order, into rounds (RoundStarted … RoundSettled or RoundVoided), each
 * translated into its facts (events.ts) and judged by every THIRTEEN. check under thirteen-cards-1989 with the
 * table's payout settings (TableOpened.thirteenCards, interpretation T2). Events of no open round are kept in
 * `unassigned`, never dropped.
 */
import type { TableOpened, ThirteenEvent } from '@table-audit/schemas/events';
import { makeFinding, type Finding, type FindingContext } from '../findings.ts';
import type { DerivedUnit, NotDerived, RoundRecord } from '../game.ts';
import { RoundTableFold, type RoundGame } from '../round-fold.ts';
import { ruleSetFor } from '../registry.ts';
import { judgeThirteenRound } from './checks/index.ts';
import { payoutOf, roundFromEvents } from './events.ts';
import { explainThirteenRound, thirteenSteps } from './explain.ts';
import { thirteenRoundRecord } from './round-record.ts';
import { THIRTEEN_READING_KEYS, thirteenReadings, type ThirteenRuleSet } from './rule-set.ts';
import type { ThirteenRound } from './round.ts';
import { settleThirteenRound, type SettledRound } from './settle.ts';

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

/**
 * The 13 Cards part of the shared round fold (../round-fold.ts): a closed round judged under the rule set in force
 * with the table's payout settings, and a judged round explained.
 */
export const THIRTEEN_ROUNDS: RoundGame<ThirteenEvent, ThirteenRoundUnit> = thirteenRounds([]);

/** The 13 Cards part of the round fold under alternative readings (readings.ts keys; empty: the register's). */
export function thirteenRounds(alternatives: readonly string[]): RoundGame<ThirteenEvent, ThirteenRoundUnit> {
  return {
    close: (roundId, events, table) => closeRound(roundId, events, table.tableId, table.opened, alternatives),
    explain: explainUnit,
  };
}

function explainUnit(u: ThirteenRoundUnit, findings: readonly Finding[]): { json: object; text: string } {
  const lines = findings.map((f) => `finding ${f.checkId}: ${f.summary}`);
  const steps = thirteenSteps(u.events);
  if (!u.facts || !u.rules) {
    const why = u.notDerived ? `${u.notDerived.code}: ${u.notDerived.message}` : 'no facts';
    return {
      json: {
        game: 'THIRTEEN_CARDS',
        roundId: u.roundId,
        tableId: u.tableId,
        ruleSet: u.ruleSet,
        notDerived: u.notDerived,
        steps,
        findings,
      },
      text: [`13 Cards round ${u.roundId} at table ${u.tableId}: not derived (${why})`, ...lines].join('\n'),
    };
  }
  const x = explainThirteenRound(u.facts, u.rules);
  return {
    json: { game: 'THIRTEEN_CARDS', ...x.json, steps, findings },
    text: [x.text, ...lines].join('\n'),
  };
}

/** One table's 13 Cards rounds: the shared round fold with the 13 Cards part. */
export class ThirteenTable extends RoundTableFold<ThirteenEvent, ThirteenRoundUnit> {
  constructor(tableId: string, alternatives: readonly string[] = [], startStates = false) {
    const keys = alternatives.filter((k) => THIRTEEN_READING_KEYS.includes(k));
    super(tableId, keys.length ? thirteenRounds(keys) : THIRTEEN_ROUNDS, 'THIRTEEN_CARDS', startStates);
  }
}

function closeRound(
  roundId: string,
  events: readonly ThirteenEvent[],
  tableId: string,
  config: TableOpened | null,
  alternatives: readonly string[],
): ThirteenRoundUnit {
  const first = events[0]!.data.header;
  const voided = events.some((e) => e.type === 'RoundVoided');
  const lookup = ruleSetFor('thirteen-cards', first.eventTime);
  let notDerived: NotDerived | null = null;
  let rules: ThirteenRuleSet | null = null;
  let facts: ThirteenRound | null = null;
  let settled: SettledRound | null = null;
  let findings: Finding[] = [];
  const payout = payoutOf(config?.thirteenCards ?? null);
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
    rules = thirteenReadings({ ...lookup.rules, payout }, alternatives);
    try {
      facts = roundFromEvents(roundId, tableId, events);
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
          tableId,
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
    tableId,
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
