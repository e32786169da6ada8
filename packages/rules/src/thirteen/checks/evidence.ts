import type { Evidence } from '../../findings.ts';
import type { Fact } from '../round.ts';

/** The facts a finding points at, as evidence. */
export const ev = (...facts: readonly Fact[]): Evidence[] =>
  facts.map((f) => ({ eventId: f.eventId, eventTime: f.time }));
