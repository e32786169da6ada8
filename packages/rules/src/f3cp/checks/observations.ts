import type { SurveillanceObservation } from '@table-audit/schemas/events';
import { evidenceOf, type CheckDefinition, type FindingInput } from '../../findings.ts';
import type { JudgedRound } from '../round.ts';

/** Below this confidence an analyst's observation is a lead to review, not a finding. */
export const OBSERVATION_CONFIDENCE = 50;

/** What a surveillance observation of some kinds proves: the check it raises. */
export interface ObservationRule {
  readonly check: CheckDefinition;
  readonly kinds: ReadonlySet<SurveillanceObservation['kind']>;
}

/** The finding an observation supports under `rule`, if it is of the rule's kinds and confident enough. */
export function judgeObservation(o: SurveillanceObservation, rule: ObservationRule): FindingInput | null {
  if (!rule.kinds.has(o.kind) || o.confidence < OBSERVATION_CONFIDENCE) return null;
  return {
    check: rule.check,
    discriminator: o.header.eventId,
    seats: o.seat ? [o.seat] : [],
    players: [o.playerId],
    summary: `${o.kind.toLowerCase().replaceAll('_', ' ')} observed${o.seat ? ` at seat ${o.seat}` : ''} by ${o.analyst ?? o.camera ?? o.header.sourceDevice} (confidence ${o.confidence}%): ${o.description}`,
    declared: { kind: o.kind, confidence: o.confidence },
    evidence: [evidenceOf(o)],
  };
}

/** Findings of `rule` for the round's surveillance observations. */
export const observed = (r: JudgedRound, rule: ObservationRule): FindingInput[] =>
  r.view.observations.flatMap((o) => judgeObservation(o, rule) ?? []);
