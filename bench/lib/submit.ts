/**
 * Simulated events into an ingest pipeline, as the benches set their stores up: in chunks, each event numbered as
 * an in-process producer's. Returns the index after the last event, for a caller that submits more after them.
 */
import type { IngestPipeline } from '@table-audit/ingest';
import type { TableEvent } from '@table-audit/rules';

export async function submitEvents(
  pipeline: IngestPipeline,
  events: readonly TableEvent[],
  { chunk = 10_000, firstIndex = 0 }: { chunk?: number; firstIndex?: number } = {},
): Promise<number> {
  for (let i = 0; i < events.length; i += chunk)
    await pipeline.submit(
      events.slice(i, i + chunk).map((event, k) => ({
        source: { kind: 'in-process' as const, producer: 'bench', index: firstIndex + i + k },
        event,
      })),
    );
  return firstIndex + events.length;
}
