import type { ShuffleCompleted } from '@table-audit/schemas/events';
import { cite } from '../../citations/citation.ts';
import { defineCheck, evidenceOf, type FindingInput } from '../../findings.ts';
import { F3CP_2025_DIPLOMA as D } from '../rule-set.ts';

/** Art. 9.º: a manual shuffle ends with a cut with the cut card (n.º 2); the automatic shuffler uses none (n.º 3). */
export const shuffleProcedure = defineCheck(
  'F3CP.SHUFFLE.PROCEDURE',
  'manual shuffle without a cut, or a cut card used with the automatic shuffler',
  'medium',
  [cite(D, 9, { numero: 2 }), cite(D, 9, { numero: 3 })],
);

/** Judged when the shuffle completes; the finding belongs to the next round dealt from it. */
export function checkShuffle(s: ShuffleCompleted): FindingInput[] {
  const manualWithoutCut = s.mode === 'MANUAL' && (!s.cutCardUsed || s.cutBy === 'NONE');
  const cutWithShuffler = s.mode === 'AUTOMATIC' && s.cutCardUsed;
  if (!manualWithoutCut && !cutWithShuffler) return [];
  return [
    {
      check: shuffleProcedure,
      discriminator: s.header.eventId,
      summary: manualWithoutCut
        ? `manual shuffle completed without a cut with the cut card (cut by ${s.cutBy}, cut card ${s.cutCardUsed ? 'used' : 'not used'})`
        : `cut card used with the automatic shuffler ${s.shufflerId ?? ''}`.trim(),
      expected:
        s.mode === 'MANUAL' ? { cutCardUsed: true, cutBy: 'BANKER or PLAYER' } : { cutCardUsed: false },
      declared: { mode: s.mode, cutCardUsed: s.cutCardUsed, cutBy: s.cutBy },
      evidence: [evidenceOf(s)],
    },
  ];
}
