/**
 * Given / When / Then over a table's events, in the style of emmett's decider specs
 * (`DeciderSpecification.for(decider).given(events).when(command).then(events)`): given the events a table
 * emitted, when the table is replayed, then exactly these check ids are found.
 *
 * `positive(id)` / `negative(id)` after `then` assert that the test proves the check fires / stays silent, and
 * mark it for coverage.test.ts, which reads these calls from the test files' text.
 */
import assert from 'node:assert/strict';
import type { F3cpEvent } from '@table-audit/schemas/events';
import type { Finding } from '../../src/findings.ts';
import type { ReplayOptions } from '../../src/game.ts';
import { ALL_F3CP08_CHECK_IDS } from '../../src/f3cp/checks/f3cp08-index.ts';
import { ALL_F3CP_CHECK_IDS } from '../../src/f3cp/checks/index.ts';
import { F3CP_MODULE } from '../../src/f3cp/module.ts';
import type { ReplayedRound } from '../../src/f3cp/table.ts';
import { renumber } from './clean-round.ts';

export interface Replay {
  readonly rounds: ReplayedRound[];
  /** every finding of every round, then the table-level ones */
  readonly findings: Finding[];
}

/** The table fold: each event applied in order, then finish(). */
export function replayTable(events: readonly F3cpEvent[], options?: ReplayOptions): Replay {
  const tableId = events[0]?.data.header.tableId ?? 'T-none';
  const table = F3CP_MODULE.newTable(tableId, options);
  const rounds: ReplayedRound[] = [];
  for (const e of events) rounds.push(...table.apply(e));
  const end = table.finish();
  rounds.push(...end.units);
  return { rounds, findings: [...rounds.flatMap((r) => r.findings), ...end.findings] };
}

const describeAll = (findings: readonly Finding[]): string =>
  findings.length
    ? findings
        .map((f) => `  ${f.checkId} [${f.severity}${f.handled ? ', handled' : ''}] ${f.summary}`)
        .join('\n')
    : '  (no finding)';

const known = (id: string) =>
  assert.ok(
    ALL_F3CP_CHECK_IDS.includes(id) || ALL_F3CP08_CHECK_IDS.includes(id),
    `${id} is not a check id of F3CP_CHECKS or F3CP08`,
  );

export interface Then {
  readonly replay: Replay;
  /** the findings of one check */
  of(id: string): Finding[];
  /** this test proves `id` fires */
  positive(id: string): Then;
  /** this test proves `id` stays silent */
  negative(id: string): Then;
}

function thenOf(replay: Replay): Then {
  const ids = () => new Set(replay.findings.map((f) => f.checkId));
  const self: Then = {
    replay,
    of: (id) => replay.findings.filter((f) => f.checkId === id),
    positive(id) {
      known(id);
      assert.ok(ids().has(id), `expected ${id}; found:\n${describeAll(replay.findings)}`);
      return self;
    },
    negative(id) {
      known(id);
      assert.ok(!ids().has(id), `expected no ${id}; found:\n${describeAll(replay.findings)}`);
      return self;
    },
  };
  return self;
}

/**
 * Given the events a table emitted, in this order: each source's sequence numbers are counted on in this order
 * (`renumber`), as the table would have numbered them. `givenAsStored` keeps the numbers as they are, for the
 * tests of the numbering itself (F3CP.EVENT.SEQUENCE).
 */
export function given(...events: (F3cpEvent | readonly F3cpEvent[])[]) {
  return givenAsStored(renumber(events.flat() as F3cpEvent[]));
}

export function givenAsStored(...events: (F3cpEvent | readonly F3cpEvent[])[]) {
  const flat = events.flat() as F3cpEvent[];
  return {
    when(fold: (events: readonly F3cpEvent[]) => Replay = replayTable) {
      const replay = fold(flat);
      return {
        /** exactly these check ids, no more, no fewer (each at least once) */
        then(expected: readonly string[]): Then {
          expected.forEach(known);
          const found = [...new Set(replay.findings.map((f) => f.checkId))].sort();
          assert.deepEqual(
            found,
            [...new Set(expected)].sort(),
            `expected exactly [${[...expected].join(', ')}]; found:\n${describeAll(replay.findings)}`,
          );
          return thenOf(replay);
        },
        /** the findings satisfy `predicate` (which may itself assert) */
        thenFindings(predicate: (findings: Finding[]) => boolean | void): Then {
          const ok = predicate(replay.findings);
          assert.ok(ok !== false, `findings did not satisfy the predicate:\n${describeAll(replay.findings)}`);
          return thenOf(replay);
        },
      };
    },
  };
}

/** Citation keys and interpretations of the one finding of `id`. */
export function onlyFinding(t: Then, id: string): Finding {
  const list = t.of(id);
  assert.equal(list.length, 1, `one ${id} finding; found:\n${describeAll(t.replay.findings)}`);
  return list[0]!;
}

export const citationKeys = (f: Finding): string[] => f.citations.map((c) => c.key);
