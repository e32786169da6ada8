/**
 * The Mah-Jong fold: one table's events into games (RoundStarted … RoundSettled or RoundVoided), each deal judged
 * by the MAHJONG. checks of mahjong-1989-deal. Only the deal is judged: the text held (Portaria 52/89/M art.
 * 1.º–2.º) has no rules for winning hands or payments, so a game's outcome is out of scope and its record has no
 * bet lines. Events of no open game are counted in `unassigned` (the first ones kept), never dropped from the store.
 */
import type { MahjongEvent, RoundDerived } from '@table-audit/schemas/events';
import { makeFinding, type Finding } from '../findings.ts';
import type { DerivedUnit, NotDerived, RoundRecord, TableFold } from '../game.ts';
import { macauDate, ruleSetFor } from '../registry.ts';
import { judgeMahjongDeal } from './checks.ts';
import { dealFromEvents } from './events.ts';
import type { MahjongDeal } from './round.ts';
import { UnassignedEvents } from '../unassigned.ts';

export interface MahjongGameUnit extends DerivedUnit {
  readonly deal: MahjongDeal | null;
  record: RoundRecord | null;
}

const NONE: MahjongGameUnit[] = [];
const byInterpretationId = new Intl.Collator('en', { numeric: true }).compare;
export const MAHJONG_OUT_OF_SCOPE =
  'the deal only: winning hands and payments are out of scope (Portaria 52/89/M art. 1.º–2.º is the text held)';

export class MahjongTable implements TableFold<MahjongGameUnit> {
  private open: { roundId: string; events: MahjongEvent[] } | null = null;
  readonly unassigned = new UnassignedEvents<MahjongEvent>();

  constructor(readonly tableId: string) {}

  apply(e: MahjongEvent): MahjongGameUnit[] {
    switch (e.type) {
      case 'TableOpened':
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

  finish(): { units: MahjongGameUnit[]; findings: Finding[] } {
    return { units: this.open ? [this.close()] : [], findings: [] };
  }

  explain(unit: DerivedUnit, later: readonly Finding[]): { json: object; text: string } {
    const u = unit as MahjongGameUnit;
    const findings = [...u.findings, ...later.filter((f) => f.roundId === u.roundId)];
    const lines = [`Mah-Jong game ${u.roundId} at table ${u.tableId} — ${MAHJONG_OUT_OF_SCOPE}`];
    if (u.notDerived) lines.push(`not derived: ${u.notDerived.code}: ${u.notDerived.message}`);
    if (u.deal) {
      lines.push(`tiles counted: ${u.deal.tileSet.tiles.length}; dice sum ${u.deal.dice.sum}`);
      for (const d of u.deal.draws)
        lines.push(`  ${d.seat} draws ${d.tiles.join(' ')} from stack ${d.fromStack}`);
    }
    for (const f of findings) lines.push(`finding ${f.checkId}: ${f.summary}`);
    return {
      json: { roundId: u.roundId, tableId: u.tableId, deal: u.deal, findings },
      text: lines.join('\n'),
    };
  }

  private close(): MahjongGameUnit {
    const { roundId, events } = this.open!;
    this.open = null;
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
      deal = dealFromEvents(roundId, this.tableId, events);
      if (!deal)
        notDerived = { code: 'cards-incomplete', message: 'no MahjongTilesCounted or no MahjongDiceThrown' };
      else
        findings = judgeMahjongDeal(deal).map((f) =>
          makeFinding(
            {
              ruleSet: lookup.rules.id,
              casino: first.casino,
              concessionaire: first.concessionaire,
              tableId: this.tableId,
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
          tableId: this.tableId,
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
    return { roundId, tableId: this.tableId, ruleSet, notDerived, findings, deal, record };
  }
}
