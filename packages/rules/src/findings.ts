import { createHash } from 'node:crypto';
import { citationKey, formatCitation, type Citation } from './citations/citation.ts';

/**
 * A named check of a rule set: its id (game prefix, family, name), severity, the provisions it enforces and the
 * interpretations it depends on. A finding cites these plus whatever the check adds (e.g. a settlement line's).
 */
export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface CheckDefinition {
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  readonly citations: readonly Citation[];
  readonly interpretations: readonly string[];
}

export const defineCheck = (
  id: string,
  title: string,
  severity: Severity,
  citations: Citation[],
  interpretations: string[] = [],
): CheckDefinition =>
  Object.freeze({
    id,
    title,
    severity,
    citations: Object.freeze(citations),
    interpretations: Object.freeze(interpretations),
  });

/** An event a finding points at, with its time (findings take the latest as their own, deterministically). */
export interface Evidence {
  readonly eventId: string;
  readonly eventTime: number;
}

export const evidenceOf = (x: { header: { eventId: string; eventTime: number } }): Evidence => ({
  eventId: x.header.eventId,
  eventTime: x.header.eventTime,
});

/**
 * A finding: what a check found in a round (or across rounds), with the evidence and the law behind it.
 * Stored as an event, so its id is deterministic: replaying the same events yields the same ids, and the
 * event store's idempotency turns a re-run into a no-op.
 */
export interface Finding {
  readonly findingId: string;
  readonly checkId: string;
  readonly title: string;
  readonly severity: Severity;
  readonly ruleSet: string;
  readonly casino: string;
  readonly concessionaire: string;
  readonly tableId: string;
  readonly roundId: string | null;
  readonly seats: readonly number[];
  readonly players: readonly string[];
  readonly summary: string;
  /**
   * The breach happened but the table handled it as the law requires (e.g. a misdeal followed by a void under
   * art. 17.º): kept for the record at low severity (interpretation J19), not an alert to work.
   */
  readonly handled: boolean;
  readonly expected: unknown;
  readonly declared: unknown;
  /** citation keys (PT/ZH text: table-audit cite KEY) with their Portuguese legal form */
  readonly citations: readonly { key: string; reference: string }[];
  readonly interpretations: readonly string[];
  readonly evidenceEventIds: readonly string[];
  /** event time of the latest evidence event: deterministic, unlike the clock */
  readonly eventTime: number;
  readonly details?: Record<string, unknown>;
}

export interface FindingContext {
  ruleSet: string;
  casino: string;
  concessionaire: string;
  tableId: string;
  roundId: string | null;
}

export interface FindingInput {
  check: CheckDefinition;
  /** distinguishes several findings of one check in one round (e.g. "seat 3 PAIR_PLUS") */
  discriminator?: string;
  seats?: number[];
  players?: (string | null)[];
  summary: string;
  /** the table handled the breach as the law requires (see Finding.handled) */
  handled?: boolean;
  /** the register's reading that a handled breach is recorded (default J19; H8 for the 2008 rules) */
  handledReading?: string;
  expected?: unknown;
  declared?: unknown;
  extraCitations?: readonly Citation[];
  extraInterpretations?: readonly string[];
  evidence: readonly Evidence[];
  details?: Record<string, unknown>;
}

/** The register's reading that a correctly handled breach is recorded, not alerted. */
export const HANDLED_INTERPRETATION = 'J19';

export function makeFinding(ctx: FindingContext, f: FindingInput): Finding {
  const citations = new Map<string, Citation>();
  for (const c of [...f.check.citations, ...(f.extraCitations ?? [])]) citations.set(citationKey(c), c);
  const interpretations = [
    ...new Set([
      ...f.check.interpretations,
      ...(f.extraInterpretations ?? []),
      ...(f.handled ? [f.handledReading ?? HANDLED_INTERPRETATION] : []),
    ]),
  ].sort(byId);
  const scope = ctx.roundId ?? `table:${ctx.tableId}`;
  const findingId = createHash('sha256')
    .update([scope, f.check.id, ctx.ruleSet, interpretations.join(','), f.discriminator ?? ''].join('|'))
    .digest('hex')
    .slice(0, 32);
  const evidence = [...new Map(f.evidence.map((e) => [e.eventId, e])).values()];
  return {
    findingId,
    checkId: f.check.id,
    title: f.check.title,
    severity: f.handled ? 'low' : f.check.severity,
    ...ctx,
    seats: [...new Set(f.seats ?? [])].sort((a, b) => a - b),
    players: [...new Set((f.players ?? []).filter((p): p is string => typeof p === 'string'))].sort(),
    summary: f.summary,
    handled: f.handled === true,
    expected: f.expected ?? null,
    declared: f.declared ?? null,
    citations: [...citations].map(([key, c]) => ({ key, reference: formatCitation(c) })),
    interpretations,
    evidenceEventIds: evidence.map((e) => e.eventId),
    eventTime: Math.max(0, ...evidence.map((e) => e.eventTime)),
    ...(f.details ? { details: f.details } : {}),
  };
}

const byId = (a: string, b: string): number =>
  a.charCodeAt(0) - b.charCodeAt(0) || Number(a.slice(1)) - Number(b.slice(1));
