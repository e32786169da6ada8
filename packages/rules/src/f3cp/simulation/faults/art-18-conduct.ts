/** Art. 18.º: the players' conduct during a round, as surveillance and the seat sensors report it. */
import type { F3cpEvent, F3cpEvents, ObservationKind } from '@table-audit/schemas/events';
import { anteSeats, defineFaults, roundSettled, type EventContext } from '../fault.ts';
import { insertAfter, insertBefore } from '../transforms.ts';

/** Once every hand has decided: before the community cards are revealed, or before the outcome without them. */
const afterDecisions = (e: F3cpEvent): boolean =>
  e.type === 'CommunityCardsRevealed' || e.type === 'OutcomeDeclared';

/** An analyst's observation of the last occupied hand, with the clip that shows it, once the hands have decided. */
function observed(kind: ObservationKind, description: string) {
  return (events: F3cpEvent[], ctx: EventContext): F3cpEvent[] => {
    const seat = anteSeats(ctx.plan)
      .filter((s) => ctx.table.occupants.has(s))
      .at(-1)!;
    const anchor = events.find(afterDecisions)!.data;
    const at = anchor.header.eventTime;
    const camera = `CAM-${ctx.table.tableId}-2`;
    const observation = ctx.event(
      'SurveillanceObservation',
      {
        kind,
        seat,
        playerId: ctx.table.occupants.get(seat)!,
        camera,
        analyst: 'analyst-07',
        inspectorId: null,
        evidence: [
          { camera, clipId: `CLIP-${ctx.table.tableId}-${at}`, clipStart: at - 10_000, clipEnd: at + 10_000 },
        ],
        confidence: 70 + ctx.rng.int(30),
        description,
      },
      { source: 'SURVEILLANCE', after: { header: { ...anchor.header, eventTime: at - 2 } } },
    );
    return insertBefore(events, afterDecisions, observation);
  };
}

export const CONDUCT_FAULTS = defineFaults(
  {
    name: 'recording-observed',
    checkIds: ['F3CP.CONDUCT.RECORDING'],
    events: observed('NOTES', 'player writing down results on a card'),
  },
  {
    name: 'card-reveal',
    checkIds: ['F3CP.CONDUCT.CARD_REVEAL'],
    events: observed('CARD_SHOWN_TO_THIRD_PARTY', 'player tilted cards towards a standing spectator'),
  },
  {
    name: 'non-seated-handling',
    checkIds: ['F3CP.CONDUCT.NON_SEATED_HANDLING'],
    events: observed('NON_SEATED_HANDLING', 'spectator behind the seat lifted the cards'),
  },
  {
    name: 'left-seat',
    checkIds: ['F3CP.CONDUCT.LEFT_SEAT'],
    // the first hand's player leaves once the hands have decided, and sits down again after the settlement
    events: (events, ctx) => {
      const seat = anteSeats(ctx.plan)[0]!;
      const playerId = ctx.table.occupants.get(seat)!;
      const anchor = events.find(afterDecisions)!.data;
      const settled = events.find(roundSettled)!.data as F3cpEvents['RoundSettled'];
      const left = ctx.event(
        'SeatVacated',
        { seat, playerId },
        {
          source: 'SEAT_SENSOR',
          roundId: null,
          after: { header: { ...anchor.header, eventTime: anchor.header.eventTime - 2 } },
        },
      );
      const back = ctx.event(
        'SeatOccupied',
        { seat, playerId },
        { source: 'SEAT_SENSOR', roundId: null, after: settled },
      );
      return insertAfter(insertBefore(events, afterDecisions, left), roundSettled, back);
    },
  },
);
