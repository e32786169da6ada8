import { citationKey, type Citation } from '../citations/citation.ts';
import { allProvisions } from '../citations/index.ts';
import { DESPACHO_53_2010 } from './despacho-53-2010.ts';
import { DESPACHO_78_2008 } from './despacho-78-2008.ts';
import { DESPACHO_89_2025 } from './despacho-89-2025.ts';
import { DESPACHO_94_2025 } from './despacho-94-2025.ts';
import { DESPACHO_97_2008 } from './despacho-97-2008.ts';
import { PORTARIA_51_89_M, PORTARIA_52_89_M } from './portarias-51-52-89-m.ts';
import { TRACE_STATUSES, type DiplomaTrace, type TraceRow, type TraceStatus } from './types.ts';

export * from './types.ts';

/** Every seed diploma, newest rules first, each with every one of its provisions. */
export const TRACEABILITY: readonly DiplomaTrace[] = Object.freeze([
  DESPACHO_89_2025,
  DESPACHO_94_2025,
  DESPACHO_78_2008,
  DESPACHO_97_2008,
  DESPACHO_53_2010,
  PORTARIA_51_89_M,
  PORTARIA_52_89_M,
]);

const rowByKey = new Map<string, { row: TraceRow; diploma: DiplomaTrace }>();
for (const d of TRACEABILITY)
  for (const row of d.rows) {
    // two rows for one provision would let the matrix say two things about it
    if (rowByKey.has(row.key)) throw new Error(`traceability: provision ${row.key} is listed twice`);
    rowByKey.set(row.key, { row, diploma: d });
  }

export const traceRowFor = (key: string): TraceRow | undefined => rowByKey.get(key)?.row;

/** Keys a citation may name: the matrix rows, and the whole-article entries of the citation files. */
const citableKeys = new Set([...rowByKey.keys(), ...allProvisions().map((p) => p.key)]);

export interface MatrixFilter {
  readonly diploma?: string;
  readonly status?: string;
}

/** The diplomas and rows a filter selects; an unknown diploma or status is an error that lists the known ones. */
export function traceabilityMatrix(filter: MatrixFilter = {}): DiplomaTrace[] {
  if (filter.diploma !== undefined && !TRACEABILITY.some((d) => d.id === filter.diploma))
    throw new Error(
      `no seed diploma "${filter.diploma}"; known: ${TRACEABILITY.map((d) => d.id).join(', ')}`,
    );
  if (filter.status !== undefined && !TRACE_STATUSES.includes(filter.status as TraceStatus))
    throw new Error(`no status "${filter.status}"; known: ${TRACE_STATUSES.join(', ')}`);
  return TRACEABILITY.filter((d) => filter.diploma === undefined || d.id === filter.diploma).map((d) => ({
    ...d,
    rows: d.rows.filter((r) => filter.status === undefined || r.status === filter.status),
  }));
}

export function traceabilityCounts(
  diplomas: readonly DiplomaTrace[] = TRACEABILITY,
): { diploma: string; provisions: number; byStatus: Record<TraceStatus, number> }[] {
  return diplomas.map((d) => {
    const byStatus = Object.fromEntries(TRACE_STATUSES.map((s) => [s, 0])) as Record<TraceStatus, number>;
    for (const r of d.rows) byStatus[r.status]++;
    return { diploma: d.id, provisions: d.rows.length, byStatus };
  });
}

/** A citation as code carries it, and where it was found (for the message when it is wrong). */
export interface CitationUse {
  readonly citation: Citation | string;
  readonly from: string;
}

/**
 * What is wrong with citations used in code: one naming no provision of its diploma, or a provision the
 * matrix does not list as implemented. Empty when the matrix and the code agree.
 */
export function citationProblems(uses: readonly CitationUse[]): string[] {
  const problems = new Set<string>();
  for (const u of uses) {
    const key = typeof u.citation === 'string' ? u.citation : citationKey(u.citation);
    const diploma = key.slice(0, key.indexOf(' art.'));
    const row = rowByKey.get(key)?.row;
    if (!citableKeys.has(key)) {
      const seed = TRACEABILITY.some((d) => d.rows.some((r) => r.citation.diploma === diploma));
      problems.add(
        seed
          ? `${u.from} cites ${key}: diploma ${diploma} has no such provision`
          : `${u.from} cites ${key}: ${diploma} is not a seed diploma of the traceability matrix`,
      );
    } else if (row && row.status !== 'implemented')
      problems.add(`${u.from} cites ${key}, which the traceability matrix lists as ${row.status}`);
  }
  return [...problems];
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** What a row says beyond its status: code, checks and tests; or the reason; or the rule set to come. */
export function rowDetail(r: TraceRow, codeSeparator = '; '): string {
  switch (r.status) {
    case 'implemented': {
      const parts = r.code.map((c) => `${c.file} (${c.symbols.join(', ')})`);
      if (r.checks.length) parts.push(`checks ${r.checks.join(', ')}`);
      parts.push(`tests ${r.tests.join(', ')}`);
      return parts.join(codeSeparator);
    }
    case 'no-code-needed':
      return r.reason;
    case 'not-implemented':
      return `rule set ${r.ruleSets.join(' / ')}`;
  }
}

/** Plain text for the terminal: one line per provision. */
export function traceabilityText(diplomas: readonly DiplomaTrace[]): string {
  const lines: string[] = [];
  for (const d of diplomas) {
    lines.push(`${d.title}  [${d.rows.length} provisions]`);
    for (const r of d.rows)
      lines.push(
        `  ${r.key.padEnd(34)} ${r.status.padEnd(15)} ${r.firstWords}`,
        `  ${' '.repeat(34)} → ${rowDetail(r)}`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

/** docs/traceability.md: per diploma, article by article, every provision with its status and evidence. */
export function traceabilityMarkdown(): string {
  const lines = [
    '# Traceability matrix',
    '',
    'Every provision of every seed diploma, with the code and tests that implement it, the reason it needs no code,',
    'or the rule set that will implement it. Generated from `packages/rules/src/traceability/` by',
    '`node --import ./apps/cli/bin/register-ts.mjs scripts/generate-traceability.ts`; do not edit by hand.',
    'Also: `table-audit cite --matrix [--diploma D] [--status S] [--json]`. The citation key of each provision is',
    'what findings and settlement lines cite (`table-audit cite KEY` prints the PT and ZH text of the 2025 rules).',
    '',
    '| diploma | provisions | implemented | no code needed | not implemented |',
    '|---|---|---|---|---|',
  ];
  for (const c of traceabilityCounts())
    lines.push(
      `| ${c.diploma} | ${c.provisions} | ${c.byStatus.implemented} | ${c.byStatus['no-code-needed']} | ${c.byStatus['not-implemented']} |`,
    );
  for (const d of TRACEABILITY) {
    lines.push('', `## ${d.title}`, '', `Text: ${d.source}. Rule sets: ${d.ruleSets.join(', ')}.`, '');
    for (const n of d.notes) lines.push(`- ${n}`);
    let article: string | null = null;
    for (const r of d.rows) {
      const heading = `${r.citation.diploma === d.id ? '' : `${r.citation.diploma} `}${r.citation.article === 0 ? 'the diploma itself' : `art. ${r.citation.article}.º${r.heading ? ` — ${r.heading}` : ''}`}${r.citation.wording ? ` (wording of ${r.citation.wording})` : ''}`;
      if (heading !== article) {
        article = heading;
        lines.push(
          '',
          `### ${heading}`,
          '',
          '| provision | first words | status | code and tests, or why not |',
          '|---|---|---|---|',
        );
      }
      const note = r.note ? ` (${r.note})` : '';
      lines.push(
        `| ${cell(r.label)}<br>\`${cell(r.key)}\` | ${cell(r.firstWords)}${cell(note)} | ${r.status} | ${cell(rowDetail(r, '<br>'))} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
