import type { SurveillanceObservation } from '@table-audit/schemas/events';
import { evidenceOf, type CheckDefinition, type FindingInput } from '../../findings.ts';
import type { JudgedRound } from '../round.ts';

/** Below this confidence an analyst's observation is a lead to review, not a finding. */
export const OBSERVATION_CONFIDENCE = 50;

/** Findings of `check` for the round's surveillance observations of the kinds it judges. */
export function observed(
  r: JudgedRound,
  check: CheckDefinition,
  kinds: (o: SurveillanceObservation) => boolean,
): FindingInput[] {
  return r.view.observations
    .filter((o) => kinds(o) && o.confidence >= OBSERVATION_CONFIDENCE)
    .map((o) => ({
      check,
      discriminator: o.header.eventId,
      seats: o.seat ? [o.seat] : [],
      players: [o.playerId],
      summary: `${o.kind.toLowerCase().replaceAll('_', ' ')} observed${o.seat ? ` at seat ${o.seat}` : ''} by ${o.analyst ?? o.camera ?? o.header.sourceDevice} (confidence ${o.confidence}%): ${o.description}`,
      declared: { kind: o.kind, confidence: o.confidence },
      evidence: [evidenceOf(o)],
    }));
}
