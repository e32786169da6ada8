/**
 * The Mah-Jong fold: one table's events into games (RoundStarted … RoundSettled or RoundVoided), each deal judged
 * by the MAHJONG. checks of mahjong-1989-deal. Only the deal is judged: the text held (Portaria 52/89/M art.
 * 1.º–2.º) has no rules for winning hands or payments, so a game's outcome is out of scope and its record has no
 * bet lines. Events of no open game are kept in `unassigned`, never dropped.
 */
import type { MahjongEvent, RoundDerived } from '@table-audit/schemas/events';
import { makeFinding, type Finding } from '../findings.ts';
import type { DerivedUnit, NotDerived, RoundRecord } from '../game.ts';
import { RoundTableFold, type RoundGame } from '../round-fold.ts';
import { macauDate, ruleSetFor } from '../registry.ts';
import { judgeMahjongDeal } from './checks.ts';
import { MAHJONG_READING_KEYS } from './deal.ts';
import { dealFromEvents } from './events.ts';
import { explainMahjongDeal } from './explain.ts';
import type { MahjongDeal } from './round.ts';

export interface MahjongGameUnit extends DerivedUnit {
  readonly deal: MahjongDeal | null;
  readonly events: readonly MahjongEvent[];
  record: RoundRecord | null;
  /** the alternative readings (M1, M2) the deal was judged under; absent: the register's */
  readonly alternatives?: readonly string[];
}

const byInterpretationId = new Intl.Collator('en', { numeric: true }).compare;
export const MAHJONG_OUT_OF_SCOPE =
  'the deal only: winning hands and payments are out of scope (Portaria 52/89/M art. 1.º–2.º is the text held)';

/** The Mah-Jong part of the shared round fold (../round-fold.ts): a closed game's deal judged, and explained. */
export const MAHJONG_ROUNDS: RoundGame<MahjongEvent, MahjongGameUnit> = mahjongRounds([]);

/** The Mah-Jong part of the round fold under alternative readings (M1, M2; empty: the register's). */
export function mahjongRounds(alternatives: readonly string[]): RoundGame<MahjongEvent, MahjongGameUnit> {
  return {
    close: (roundId, events, table) => closeGame(roundId, events, table.tableId, alternatives),
    explain: (u, findings) => explainMahjongDeal(u, findings),
  };
}

/** One table's Mah-Jong games: the shared round fold with the Mah-Jong part. */
export class MahjongTable extends RoundTableFold<MahjongEvent, MahjongGameUnit> {
  constructor(tableId: string, alternatives: readonly string[] = [], startStates = false) {
    const keys = alternatives.filter((k) => MAHJONG_READING_KEYS.includes(k));
    super(tableId, keys.length ? mahjongRounds(keys) : MAHJONG_ROUNDS, 'MAHJONG', startStates);
  }
}

function closeGame(
  roundId: string,
  events: readonly MahjongEvent[],
  tableId: string,
  alternatives: readonly string[],
): MahjongGameUnit {
  const first = events[0]!.data.header;
  const voided = events.some((e) => e.type === 'RoundVoided');
  const lookup = ruleSetFor('mahjong', first.eventTime);
  let notDerived: NotDerived | null = null;
  let deal: MahjongDeal | null = null;
  let findings: Finding[] = [];
  if (lookup.status !== 'implemented')
    notDerived = {
      code: lookup.status === 'no-rules' ? 'no-rules' : 'rule-set-not-implemented',
      message: lookup.reason,
    };
  else if (voided) notDerived = { code: 'voided', message: 'the table voided the game' };
  else {
    deal = dealFromEvents(roundId, tableId, events);
    if (!deal)
      notDerived = { code: 'cards-incomplete', message: 'no MahjongTilesCounted or no MahjongDiceThrown' };
    else
      findings = judgeMahjongDeal(deal, alternatives).map((f) =>
        makeFinding(
          {
            ruleSet: lookup.rules.id,
            casino: first.casino,
            concessionaire: first.concessionaire,
            tableId,
            roundId,
          },
          f,
        ),
      );
  }
  const ruleSet = lookup.status === 'implemented' ? lookup.rules.id : null;
  const interpretations = new Set<string>();
  for (const f of findings) for (const i of f.interpretations) interpretations.add(i);
  const record: RoundDerived | null = Number.isFinite(first.eventTime)
    ? {
        roundId,
        tableId,
        casino: first.casino,
        concessionaire: first.concessionaire,
        game: 'MAHJONG',
        ruleSetId: ruleSet,
        macauDate: macauDate(first.eventTime),
        roundStartTime: first.eventTime,
        dealerId: first.staffId,
        status: voided ? 'VOIDED' : notDerived ? 'NOT_DERIVED' : 'SETTLED',
        statusReason: notDerived ? `${notDerived.code}: ${notDerived.message}` : MAHJONG_OUT_OF_SCOPE,
        totalStakedAvos: 0,
        expectedPaidAvos: 0,
        declaredPaidAvos: 0,
        houseResultAvos: 0,
        lines: [],
        findingIds: findings.map((f) => f.findingId),
        interpretationIds: [...interpretations].sort(byInterpretationId),
      }
    : null;
  return {
    roundId,
    tableId,
    ruleSet,
    notDerived,
    findings,
    deal,
    events,
    record,
    ...(alternatives.length ? { alternatives } : {}),
  };
}
