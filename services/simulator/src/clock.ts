import type { Rng, TableClock } from '@table-audit/rules';
import type { EventHeader, SourceKind, TableEvent } from '@table-audit/schemas/events';

const DEVICE_PREFIX: Readonly<Record<SourceKind, string>> = {
  TABLE_CONTROLLER: 'TC',
  SHUFFLER: 'SH',
  SEAT_SENSOR: 'SS',
  SURVEILLANCE: 'CAM',
  UNKNOWN: 'UNK', // the reader's fallback for a kind added later; a simulated device is never one
};

/** Where a table stands: every event's header names it. */
export interface TablePlace {
  readonly casino: string;
  readonly concessionaire: string;
  readonly tableId: string;
}

/** A table's clock and devices: each event a little after the last (0.2 to 1.5 s), one sequence per device. */
export class SimulatedClock implements TableClock {
  private readonly sequences = new Map<string, number>();
  private readonly devices: Readonly<Record<SourceKind, string>>;

  constructor(
    private readonly rng: Rng,
    private time: number,
    private readonly place: TablePlace,
  ) {
    const device = (source: SourceKind) => `${DEVICE_PREFIX[source]}-${place.tableId}`;
    this.devices = {
      TABLE_CONTROLLER: device('TABLE_CONTROLLER'),
      SHUFFLER: device('SHUFFLER'),
      SEAT_SENSOR: device('SEAT_SENSOR'),
      SURVEILLANCE: device('SURVEILLANCE'),
      UNKNOWN: device('UNKNOWN'),
    };
  }

  now(): number {
    return this.time;
  }

  pause(ms: number): void {
    this.time += ms;
  }

  stamp(source: SourceKind, roundId: string | null, staffId: string | null): EventHeader {
    this.time += 200 + this.rng.int(1_300);
    const device = this.devices[source];
    const sequence = (this.sequences.get(device) ?? 0) + 1;
    this.sequences.set(device, sequence);
    return {
      eventId: `${device}-${sequence}`,
      eventTime: this.time,
      receivedTime: null,
      sourceKind: source,
      sourceDevice: device,
      sequence,
      casino: this.place.casino,
      concessionaire: this.place.concessionaire,
      tableId: this.place.tableId,
      roundId,
      staffId,
    };
  }
}

/**
 * Numbers each device's events again in the order the table emitted them: a fault may add, drop or move events
 * of a round after their headers were made, and an event id must stay unique.
 */
export function renumber(events: readonly TableEvent[]): void {
  const sequences = new Map<string, number>();
  for (const e of events) {
    const h = e.data.header;
    const sequence = (sequences.get(h.sourceDevice) ?? 0) + 1;
    sequences.set(h.sourceDevice, sequence);
    h.sequence = sequence;
    h.eventId = `${h.sourceDevice}-${sequence}`;
  }
}

/** A device clock that jumps further than this between two events of a table is wrong, not the table slow. */
const LONGEST_GAP_MS = 60 * 60 * 1000;

/**
 * When each of a table's events reached the pipeline: a table delivers its events in order, so an event whose own
 * time is before the previous one's, or implausibly far after it (a device clock gone wrong), arrives in its place.
 */
export function deliveryTimes(events: readonly TableEvent[]): number[] {
  const out: number[] = [];
  let at = Number.NEGATIVE_INFINITY;
  for (const e of events) {
    const t = e.data.header.eventTime;
    if (out.length === 0 || (t >= at && t - at <= LONGEST_GAP_MS)) at = t;
    out.push(at);
  }
  return out;
}
