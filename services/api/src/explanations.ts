/**
 * Every game's explanation as the round page draws it: the timeline (`steps`) and whole findings (each citation
 * with its key, for the PT and ZH text). 13 Cards and Mah-Jong explanations carry them (packages/rules); a CRAPS
 * throw's explanation names its findings by check id and its articles as text, so `completeCraps` adds the
 * throw's events and the stored findings, and the point after the throw. A Mah-Jong round carries the scope note
 * (`scopeNoteOf`): outcomes are out of scope until the rest of the regulation is available.
 */
import type { EventStore, RecordedEvent } from '@table-audit/eventstore';
import type { RoundExplanation } from '@table-audit/replay';
import {
  citationKey,
  CRAPS_MODULE,
  formatMop,
  parseCitation,
  POINT_NUMBERS,
  utcText,
  type CrapsExplanation,
  type Finding,
} from '@table-audit/rules';
import { MAHJONG_SCOPE } from '@table-audit/rules/mahjong';
import { findingStream, tableStream } from '@table-audit/schemas/streams';
import { Type } from 'typebox';

/** The machine-readable note a Mah-Jong round and its findings carry: what is judged and what is not. */
export const ScopeSchema = Type.Object(
  {
    code: Type.String({ description: 'outcomes-out-of-scope' }),
    game: Type.String(),
    ruleSet: Type.String(),
    judged: Type.Array(Type.String()),
    notJudged: Type.Array(Type.String()),
    message: Type.String(),
    doc: Type.String({ description: 'the page of the project that says more' }),
  },
  {
    description:
      'present on a Mah-Jong round or finding: only the deal (Portaria 52/89/M art. 1.º–2.º) is judged; outcomes are out of scope until the rest of the regulation is available',
    examples: [MAHJONG_SCOPE],
  },
);

/** The scope note of a game's rounds, or null when every part the law regulates is judged. */
export const scopeNoteOf = (game: string | null) =>
  game === 'MAHJONG'
    ? {
        ...MAHJONG_SCOPE,
        judged: [...MAHJONG_SCOPE.judged],
        notJudged: [...MAHJONG_SCOPE.notJudged],
      }
    : null;

const crapsChecks = new Map(CRAPS_MODULE.checks.map((c) => [c.id, c]));

/** A citation as an explanation prints it ("Despacho n.º 53/2010, art. 6.º, n.º 2") with its key, when it reads. */
function keyed(reference: string): { key: string; reference: string } | null {
  try {
    return { key: citationKey(parseCitation(reference)), reference };
  } catch {
    return null; // kept as text: the page shows it without the article text
  }
}

/** One CRAPS event in words, for the timeline. */
function describeCraps(e: RecordedEvent): string {
  const d = e.data as Record<string, unknown>;
  switch (e.type) {
    case 'DiceThrown':
      return `${String(d['shooterId'])} throws ${((d['faces'] as number[]) ?? []).join('-')}${d['declaredVoid'] ? ', declared void' : ''}${d['voidReason'] ? ` (cause seen: ${String(d['voidReason'])})` : ''}`;
    case 'CrapsBetPlaced':
      return `bet ${String(d['betId'])} by ${String(d['playerId'])}: ${String(d['betType'])}${d['number'] === null || d['number'] === undefined ? '' : ` ${String(d['number'])}`}, ${typeof d['amount'] === 'number' && Number.isSafeInteger(d['amount']) ? formatMop(d['amount']) : String(d['amount'])}${d['behindBetId'] ? ` behind ${String(d['behindBetId'])}` : ''}`;
    case 'CrapsBetResolved':
      return `bet ${String(d['betId'])} resolved ${String(d['outcome'])}${d['outcome'] === 'WIN' && typeof d['payout'] === 'number' && Number.isSafeInteger(d['payout']) ? `, paid ${formatMop(d['payout'])}` : ''}`;
    case 'ShooterChanged':
      return `shooter now ${String(d['shooterId'])} (${String(d['reason'])})`;
    default:
      return e.type;
  }
}

/**
 * The point after a throw, as the CRAPS fold moves it (Despacho n.º 53/2010, art. 4.º): a come-out roll of 4, 5,
 * 6, 8, 9 or 10 sets it; the point or a 7 ends it; a throw declared void or not derived moves nothing.
 */
function pointAfter(x: CrapsExplanation): number | null {
  if (x.void.declared || x.notDerived) return x.pointBefore;
  if (x.pointBefore === null) return POINT_NUMBERS.includes(x.sum) ? x.sum : null;
  return x.sum === x.pointBefore || x.sum === 7 ? null : x.pointBefore;
}

/**
 * A CRAPS throw's explanation made whole for the round page: the game, its timeline (the throw's events and the
 * placing of every bet on the layout at the throw), each line's articles with their keys, the point after, and
 * its findings as stored by the replay (matched by check id and summary); a finding the explanation names that is
 * not stored yet is built from its check's definition, with a null id.
 */
export function completeCraps(
  x: CrapsExplanation,
  tableEvents: readonly RecordedEvent[],
  stored: readonly Finding[],
): object {
  const betIds = new Set(x.lines.map((l) => l.betId));
  const steps = tableEvents
    .filter((e) => {
      const d = e.data as { header?: { roundId?: unknown }; betId?: unknown } | null;
      return (
        d?.header?.roundId === x.throwId ||
        (e.type === 'CrapsBetPlaced' && typeof d?.betId === 'string' && betIds.has(d.betId))
      );
    })
    .map((e) => {
      const h = (e.data as { header: { eventId: string; eventTime: number } }).header;
      return { time: utcText(h.eventTime), eventId: h.eventId, type: e.type, text: describeCraps(e) };
    });
  const left = [...stored];
  const findings = x.findings.map((f) => {
    const at = left.findIndex((s) => s.checkId === f.checkId && s.summary === f.summary);
    if (at >= 0) return left.splice(at, 1)[0]!;
    const check = crapsChecks.get(f.checkId);
    return {
      findingId: null,
      checkId: f.checkId,
      title: check?.title ?? f.checkId,
      severity: check?.severity ?? 'medium',
      ruleSet: x.ruleSet ?? '',
      tableId: x.tableId,
      roundId: x.throwId,
      summary: f.summary,
      handled: false,
      expected: null,
      declared: null,
      citations: f.citations.map((c) => keyed(c) ?? { key: c, reference: c }),
      interpretations: [...(check?.interpretations ?? [])],
      evidenceEventIds: [],
      eventTime: x.time,
      notStored: 'the replay has not stored this finding yet (run table-audit replay)',
    };
  });
  return {
    ...x,
    game: 'CRAPS',
    roundId: x.throwId,
    pointAfter: pointAfter(x),
    lines: x.lines.map((l) => ({
      ...l,
      citations: l.rule.map((r) => keyed(r)).filter((c) => c !== null),
    })),
    steps,
    findings,
  };
}

/** Whether an explanation is a CRAPS throw's (whose answer completeExplanation makes with the stored findings). */
export const isCrapsExplanation = (json: object): json is CrapsExplanation =>
  'throwId' in json && 'faces' in json && 'pointBefore' in json;

/**
 * A round's explanation as the round page draws it: a CRAPS throw's made whole (completeCraps: its events and the
 * findings stored about it); every other game's explanation already carries its timeline and findings. Called by
 * the API's RoundDerivations on each answer it makes; the answer is kept until the table's stream or its findings
 * stream grows.
 */
export async function completeExplanation(
  store: EventStore,
  x: RoundExplanation,
  tableId: string,
  roundId: string,
): Promise<RoundExplanation> {
  if (!isCrapsExplanation(x.json)) return x;
  const events: RecordedEvent[] = [];
  for await (const e of store.readStream(tableStream(tableId))) events.push(e);
  const stored: Finding[] = [];
  for await (const e of store.readStream(findingStream(tableId))) {
    const f = e.data as Finding | null;
    if (f && f.roundId === roundId && typeof f.findingId === 'string') stored.push(f);
  }
  return { ...x, json: completeCraps(x.json, events, stored) };
}
