import type { Citation } from '../citations/citation.ts';
import { traceRow, type CodeRef, type RowInput, type Status, type TraceRow } from './types.ts';

/** Builders the per-diploma files share: code references, test files, statuses. */
export const code = (file: string, ...symbols: string[]): CodeRef => Object.freeze({ file, symbols });
export const implemented = (codeRefs: CodeRef[], tests: string[], checks: string[] = []): Status => ({
  status: 'implemented',
  code: codeRefs,
  checks,
  tests: [...new Set([...tests, ...codeRefs.flatMap((c) => givenWhenThenTests(c.file))])],
});

/** A check family's Given/When/Then tests sit beside it in packages/rules/test, one file per family. */
const givenWhenThenTests = (file: string): string[] =>
  file.includes('/src/f3cp/checks/')
    ? [
        file
          .replace('/src/f3cp/checks/', '/test/f3cp/')
          .replace('art-18-collusion', 'art-18-conduct')
          .replace(/\.ts$/, '.test.ts'),
      ]
    : [];
export const noCode = (reason: string): Status => ({ status: 'no-code-needed', reason });
export const notImplemented = (...ruleSets: string[]): Status => ({ status: 'not-implemented', ruleSets });

/** A row of a diploma whose text is held here (not in the citation files): heading and first words given. */
export const provision = (
  citation: Citation,
  heading: string | null,
  firstWords: string,
  status: Status,
  extra: Pick<RowInput, 'note' | 'alineaLetters' | 'ownText' | 'label'> = {},
): TraceRow => traceRow({ citation, heading, firstWords, status, ...extra });

/** Test files named by the matrix (the traceability test checks that they exist). */
export const TESTS = {
  settle: 'packages/rules/test/settle.test.ts',
  three: 'packages/rules/test/three-card.test.ts',
  five: 'packages/rules/test/five-card.test.ts',
  cards: 'packages/rules/test/cards.test.ts',
  math: 'packages/rules/test/math.test.ts',
  registry: 'packages/rules/test/registry.test.ts',
  detection: 'services/replay/test/detection.test.ts',
  collusion: 'services/replay/test/collusion.test.ts',
  ingest: 'services/ingest/test/pipeline.test.ts',
} as const;

/** Where the checks of the 2025 rules live: one file per article family. */
export const CHECKS = {
  cards: 'packages/rules/src/f3cp/checks/art-02-cards.ts',
  bets: 'packages/rules/src/f3cp/checks/art-04-10-bets.ts',
  shuffle: 'packages/rules/src/f3cp/checks/art-09-shuffle.ts',
  dealing: 'packages/rules/src/f3cp/checks/art-11-dealing.ts',
  playing: 'packages/rules/src/f3cp/checks/art-12-playing.ts',
  settlement: 'packages/rules/src/f3cp/checks/art-13-16-settlement.ts',
  jackpot: 'packages/rules/src/f3cp/checks/art-15-jackpot.ts',
  irregularities: 'packages/rules/src/f3cp/checks/art-17-irregularities.ts',
  conduct: 'packages/rules/src/f3cp/checks/art-18-conduct.ts',
  collusion: 'packages/rules/src/f3cp/checks/art-18-collusion.ts',
  record: 'packages/rules/src/f3cp/checks/record.ts',
} as const;

export const RULES = {
  registry: 'packages/rules/src/registry.ts',
  cards: 'packages/rules/src/cards.ts',
  three: 'packages/rules/src/poker/three-card.ts',
  five: 'packages/rules/src/poker/five-card.ts',
  ruleSet: 'packages/rules/src/f3cp/rule-set.ts',
  settle: 'packages/rules/src/f3cp/settle/index.ts',
  settleJackpot: 'packages/rules/src/f3cp/settle/jackpot.ts',
  settleVoid: 'packages/rules/src/f3cp/settle/void.ts',
  facts: 'packages/rules/src/f3cp/facts.ts',
  events: 'packages/rules/src/f3cp/events.ts',
  table: 'packages/rules/src/f3cp/table.ts',
  validate: 'packages/rules/src/f3cp/validate.ts',
} as const;
