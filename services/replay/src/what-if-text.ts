/**
 * The what-if report and the side-by-side round for people: money in MOP (the data carries avos), times in Macau
 * time, each saying so; the readings compared with their provisions in PT and ZH.
 */
import { formatMacauTime, formatMop, whatIfLabel } from '@table-audit/rules';
import type { WhatIfSource } from './readings-ready.ts';
import type { RoundReadings } from './round-readings.ts';
import type { ChangedRound } from './what-if-core.ts';
import type { ReadingCompared, RoundWhatIf, WhatIfReport } from './what-if.ts';

const n = (x: number) => x.toLocaleString('en-US');
const signedMop = (avos: number) => (avos > 0 ? `+${formatMop(avos)}` : formatMop(avos));

/** Each reading compared: the question, the register's reading, the alternative, the provisions in PT and ZH. */
export function readingsText(readings: readonly ReadingCompared[], withTexts: boolean): string[] {
  const out: string[] = [];
  for (const r of readings) {
    out.push(`${whatIfLabel(r.key)} — ${r.question}`);
    out.push(`  chosen reading:      ${r.chosen}`);
    out.push(`  alternative reading: ${r.alternative}`);
    out.push(`  what the replay does under it: ${r.effect}`);
    for (const a of r.articles) {
      if (!withTexts) {
        out.push(`  provision ${a.key}`);
        continue;
      }
      out.push(`  provision ${a.key}`);
      out.push(`    PT: ${a.pt ?? '(text not held)'}`);
      out.push(`    ZH: ${a.zh ?? '(no Chinese text held)'}`);
    }
  }
  return out;
}

/** The report as text. */
/** Where a report kept ready comes from, in words: when its tables were derived (Macau time), and that they are current. */
export function keptReadingsSentence(src: WhatIfSource & { kind: 'kept' }): string {
  const when =
    src.preparedFrom === null
      ? ''
      : src.preparedTo !== null && src.preparedTo !== src.preparedFrom
        ? `, its tables derived from ${formatMacauTime(src.preparedFrom)} to ${formatMacauTime(src.preparedTo)}`
        : `, its tables derived ${formatMacauTime(src.preparedFrom)}`;
  const now = src.derivedNow.tables;
  return now
    ? `from the readings kept ready${when}, and ${now} table${now === 1 ? '' : 's'} derived now (${src.derivedNow.why}${now > 1 ? ', and others' : ''})`
    : `from the readings kept ready${when}, every table still at the event it was derived to`;
}

export function whatIfText(r: WhatIfReport, maxRounds = 20, maxRows = 30): string {
  const s = r.scope;
  const out: string[] = [];
  out.push(
    `What-if: ${r.readings.map((x) => whatIfLabel(x.key)).join(', ')} against the register's readings, rounds of ${s.from} to ${s.to} (Macau dates)${s.casino ? `, casino ${s.casino}` : ''}${s.tableId ? `, table ${s.tableId}` : ''}${s.concessionaire ? `, concessionaire ${s.concessionaire}` : ''}`,
  );
  out.push(...readingsText(r.readings, false));
  const src = r.source;
  out.push(
    '',
    src.kind === 'kept'
      ? `${n(r.roundsCompared)} rounds compared under both readings, ${keptReadingsSentence(src)} (${src.file}; ${n(r.events)} events, answered in ${(r.elapsedMs / 1000).toFixed(2)} s); ${n(r.roundsChanged)} changed; the stored findings and checkpoints were not touched`
      : `${n(r.roundsCompared)} rounds re-derived under both readings (${n(r.events)} events read, ${r.workers} worker${r.workers === 1 ? '' : 's'}, ${(r.elapsedMs / 1000).toFixed(1)} s); ${n(r.roundsChanged)} changed; the stored findings and checkpoints were not touched${src.why ? ` (not from readings kept ready: ${src.why})` : ''}`,
  );
  for (const t of r.tablesNotVerified)
    out.push(
      `table ${t.tableId} compared only up to revision ${t.revision - 1} of ${t.stream}: its stored record failed verification at revision ${t.revision} (event ${t.eventId}): ${t.reason}; nothing from there on is derived (table-audit verify --stream ${t.stream})`,
    );
  if (r.notDerivedAlternative !== r.notDerivedChosen)
    out.push(
      `rounds not derived: ${n(r.notDerivedChosen)} under the chosen readings, ${n(r.notDerivedAlternative)} under the alternative`,
    );
  out.push(
    `findings: ${n(r.findingsChosen)} under the chosen readings, ${n(r.findingsAlternative)} under the alternative`,
  );
  const moved = r.findings.filter((f) => f.appeared || f.disappeared);
  if (moved.length) {
    const byCheck = new Map<string, { appeared: number; disappeared: number }>();
    for (const f of moved) {
      const t = byCheck.get(f.checkId) ?? { appeared: 0, disappeared: 0 };
      t.appeared += f.appeared;
      t.disappeared += f.disappeared;
      byCheck.set(f.checkId, t);
    }
    out.push('', 'Findings that appear (+) or disappear (−), by check:');
    for (const [id, t] of byCheck)
      out.push(
        `  ${id.padEnd(44)} ${t.appeared ? `+${n(t.appeared)}` : ''}${t.appeared && t.disappeared ? ' ' : ''}${t.disappeared ? `−${n(t.disappeared)}` : ''}`,
      );
    out.push('', 'by check, casino and table:');
    for (const f of moved.slice(0, maxRows))
      out.push(
        `  ${f.checkId.padEnd(44)} ${f.casino.padEnd(10)} ${f.tableId.padEnd(12)} ${f.appeared ? `+${f.appeared}` : ''}${f.appeared && f.disappeared ? ' ' : ''}${f.disappeared ? `−${f.disappeared}` : ''}`,
      );
    if (moved.length > maxRows)
      out.push(`  … ${n(moved.length - maxRows)} more rows (--json lists them all)`);
  } else out.push('', 'No finding appears or disappears.');
  const money = r.money.filter((m) => m.linesChanged);
  if (money.length) {
    out.push(
      '',
      'Money by bet type (MOP): winnings owed and the players’ net, under the chosen reading → the alternative:',
    );
    for (const m of money)
      out.push(
        `  ${m.betType.padEnd(16)} ${n(m.linesChanged).padStart(6)} bets settled differently; winnings ${formatMop(m.chosenPaidAvos)} → ${formatMop(m.alternativePaidAvos)} (${signedMop(m.alternativePaidAvos - m.chosenPaidAvos)}); players' net ${formatMop(m.chosenNetAvos)} → ${formatMop(m.alternativeNetAvos)} (${signedMop(m.alternativeNetAvos - m.chosenNetAvos)})`,
      );
  } else out.push('No bet is settled differently.');
  if (r.changed.length) {
    out.push(
      '',
      `Rounds that changed (the first ${Math.min(maxRounds, r.changed.length)} of ${n(r.roundsChanged)}, by start time; replay one side by side: table-audit replay ROUND_ID --what-if …):`,
    );
    for (const c of r.changed.slice(0, maxRounds)) {
      out.push(`  ${c.roundId}  ${c.tableId}  ${c.casino}  ${formatMacauTime(c.roundStartTime)}`);
      for (const w of changeLines(c)) out.push(`      ${w}`);
    }
  }
  return out.join('\n');
}

/** A bet as one reading settles it: "WIN MOP 100.00", or "none" when that reading has no such line. */
const settled = (s: ChangedRound['lines'][number]['chosen']) =>
  s ? `${s.outcome} ${formatMop(s.payoutAvos)}` : 'none';

/** What changed in a round, a line each: findings that appear (+) or disappear (−), bets, status. */
function changeLines(c: ChangedRound): string[] {
  return [
    ...times(c.findingsAppeared, '+'),
    ...times(c.findingsDisappeared, '−'),
    ...c.lines.map((l) => `seat ${l.seat} ${l.betType} ${settled(l.chosen)} → ${settled(l.alternative)}`),
    ...(c.statusChosen !== c.statusAlternative ? [`${c.statusChosen} → ${c.statusAlternative}`] : []),
    ...(c.notDerivedAlternative ? [`not derived: ${c.notDerivedAlternative}`] : []),
  ];
}

/** One round under every selectable alternative of its rule set: those that change it, how; the others by id. */
export function roundReadingsText(x: RoundReadings): string {
  const changed = x.readings.filter((r) => r.changed);
  const same = x.readings.filter((r) => !r.changed);
  const out: string[] = [
    `Round ${x.roundId} of table ${x.tableId} (${x.game}, rule set ${x.ruleSetId ?? 'none'}, started ${formatMacauTime(x.roundStartTime)}), derived under each selectable alternative reading of its rule set, each alone against the register's readings (the table folded from its first event under each; ${n(x.eventsRead)} events read, every link checked, ${(x.elapsedMs / 1000).toFixed(1)} s; nothing written).`,
    '',
    changed.length
      ? `${changed.length} of ${x.readings.length} readings change this round:`
      : `None of the ${x.readings.length} readings changes this round: its derivation does not hinge on an unclear provision the register's alternatives cover.`,
  ];
  for (const r of changed) {
    const c = r.changed!;
    out.push('', ...readingsText([r.reading], false));
    const paid = c.expectedPaidAlternativeAvos - c.expectedPaidChosenAvos;
    // a game without bets on the round (the Mah-Jong deal) owes nothing under either reading: not said
    if (c.expectedPaidChosenAvos || c.expectedPaidAlternativeAvos)
      out.push(
        `  this round: winnings owed ${formatMop(c.expectedPaidChosenAvos)} → ${formatMop(c.expectedPaidAlternativeAvos)}${paid ? ` (${signedMop(paid)})` : ''}`,
      );
    else out.push('  this round:');
    for (const w of changeLines(c)) out.push(`    ${w}`);
  }
  if (changed.length && same.length) out.push('');
  if (same.length) out.push(`No change under: ${same.map((r) => whatIfLabel(r.reading.key)).join(', ')}`);
  for (const u of x.notSelectable) out.push(`Not selectable: ${u.id}: ${u.reason}`);
  if (changed.length)
    out.push(
      '',
      `Side by side, step by step: table-audit replay ${x.roundId} --what-if ${whatIfLabel(changed[0]!.reading.key)}`,
    );
  return out.join('\n');
}

/** Check ids with their count: "+F3CP.PAYOUT.MISMATCH ×4". */
function times(ids: readonly string[], sign: string): string[] {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return [...m].map(([id, k]) => `${sign}${id}${k > 1 ? ` ×${k}` : ''}`);
}

/** Wraps a line to `width` columns (at spaces where it can). */
function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut < width / 2) cut = width;
    out.push(rest.slice(0, cut));
    rest = '  ' + rest.slice(cut).trimStart();
  }
  out.push(rest);
  return out;
}

/** The longest common subsequence of two line lists, as pairs of indices (for the side-by-side alignment). */
function align(a: readonly string[], b: readonly string[]): [number | null, number | null][] {
  const m = a.length;
  const k = b.length;
  const L: Uint16Array[] = Array.from({ length: m + 1 }, () => new Uint16Array(k + 1));
  for (let i = m - 1; i >= 0; i--)
    for (let j = k - 1; j >= 0; j--)
      L[i]![j] = a[i] === b[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const raw: [number | null, number | null][] = [];
  let i = 0;
  let j = 0;
  while (i < m || j < k) {
    if (i < m && j < k && a[i] === b[j]) raw.push([i++, j++]);
    else if (j >= k || (i < m && L[i + 1]![j]! >= L[i]![j + 1]!)) raw.push([i++, null]);
    else raw.push([null, j++]);
  }
  // a run of lines only on the left followed by a run only on the right: the same rows, changed
  const out: [number | null, number | null][] = [];
  for (let p = 0; p < raw.length;) {
    if (raw[p]![1] !== null) {
      out.push(raw[p++]!);
      continue;
    }
    const left: number[] = [];
    while (p < raw.length && raw[p]![1] === null) left.push(raw[p++]![0]!);
    const right: number[] = [];
    while (p < raw.length && raw[p]![0] === null) right.push(raw[p++]![1]!);
    for (let q = 0; q < Math.max(left.length, right.length); q++)
      out.push([left[q] ?? null, right[q] ?? null]);
  }
  return out;
}

/** One round under both readings, side by side (`|` marks the rows that differ), after the readings compared. */
export function roundWhatIfText(x: RoundWhatIf, width = 160): string {
  const col = Math.max(40, Math.floor((width - 3) / 2));
  const out: string[] = [
    `Round ${x.roundId} of table ${x.tableId}, derived twice from the store (nothing written):`,
    ...readingsText(x.readings, true),
    '',
  ];
  const a = x.chosen.text.split('\n');
  const b = x.alternative.text.split('\n');
  out.push(
    `${'CHOSEN READINGS (the register)'.padEnd(col)}   ALTERNATIVE (${x.readings.map((r) => whatIfLabel(r.key)).join(', ')})`,
  );
  out.push(`${'-'.repeat(col)}   ${'-'.repeat(col)}`);
  for (const [i, j] of align(a, b)) {
    const left = i === null ? [] : wrap(a[i]!, col);
    const right = j === null ? [] : wrap(b[j]!, col);
    const same = i !== null && j !== null && a[i] === b[j];
    for (let r = 0; r < Math.max(left.length, right.length); r++)
      out.push(`${(left[r] ?? '').padEnd(col)} ${same ? ' ' : '|'} ${right[r] ?? ''}`.trimEnd());
  }
  return out.join('\n');
}
