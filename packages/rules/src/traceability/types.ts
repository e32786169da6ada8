import { citationKey, type Citation } from '../citations/citation.ts';

/**
 * The traceability matrix: every provision of every seed diploma, with what implements it. A row is one
 * provision (article, número, alínea, sub-alínea, in one wording); its key is the citation key the code uses.
 */
export type TraceStatus = 'implemented' | 'no-code-needed' | 'not-implemented';
export const TRACE_STATUSES: readonly TraceStatus[] = ['implemented', 'no-code-needed', 'not-implemented'];

/** A source file (path from the repository root) and the symbols in it that do the work. */
export interface CodeRef {
  readonly file: string;
  readonly symbols: readonly string[];
}

interface RowBase {
  readonly key: string;
  readonly citation: Citation;
  /** how the text numbers it, e.g. "art. 7.º n.º 1 2)" or "art. 2.º a)" */
  readonly label: string;
  /** the heading of the article, where the text has one */
  readonly heading: string | null;
  /** the provision's first words in Portuguese */
  readonly firstWords: string;
  /** a remark on the text itself (OCR, numbering, lost parts) */
  readonly note?: string;
}

export interface ImplementedRow extends RowBase {
  readonly status: 'implemented';
  readonly code: readonly CodeRef[];
  /** ids of the replay checks that enforce the provision */
  readonly checks: readonly string[];
  readonly tests: readonly string[];
}

export interface NoCodeRow extends RowBase {
  readonly status: 'no-code-needed';
  readonly reason: string;
}

export interface NotImplementedRow extends RowBase {
  readonly status: 'not-implemented';
  /** the rule-set ids of the registry that will implement it */
  readonly ruleSets: readonly string[];
}

export type TraceRow = ImplementedRow | NoCodeRow | NotImplementedRow;

/** One seed diploma and its provisions, in the order of the text. */
export interface DiplomaTrace {
  /** as the registry names it: "89/2025", "Portaria 51/89/M" */
  readonly id: string;
  readonly title: string;
  readonly source: string;
  readonly ruleSets: readonly string[];
  /** what the text as we hold it leaves out, and other remarks on the diploma as a whole */
  readonly notes: readonly string[];
  readonly rows: readonly TraceRow[];
}

export type Status =
  | {
      readonly status: 'implemented';
      readonly code: CodeRef[];
      readonly checks: string[];
      readonly tests: string[];
    }
  | { readonly status: 'no-code-needed'; readonly reason: string }
  | { readonly status: 'not-implemented'; readonly ruleSets: readonly string[] };

/** "art. 7.º n.º 1 2) (1)" — the way the text numbers it; article 0 is the despacho's (or portaria's) own text. */
export function provisionLabel(c: Citation, alineaLetters = false, ownText = 'despacho'): string {
  const parts: string[] = [c.article === 0 ? ownText : `art. ${c.article}.º`];
  if (c.numero !== undefined)
    parts.push(c.article === 0 && ownText === 'portaria' ? `art. ${c.numero}.º` : `n.º ${c.numero}`);
  if (c.alinea !== undefined)
    parts.push(alineaLetters ? `${String.fromCharCode(96 + c.alinea)})` : `${c.alinea})`);
  if (c.subalinea !== undefined) parts.push(`(${c.subalinea})`);
  const label = parts.join(' ');
  return c.wording === undefined ? label : `${label} [wording of ${c.wording}]`;
}

/** The first words of a provision's text, without its own number ("1.", "2)", "(1)", "a)"). */
export function firstWordsOf(text: string, words = 12): string {
  const body = text
    .replace(/^\s*(\d+\.|\d+\)|\(\d+\)|[a-z]\)|-)\s*/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  const list = body.split(' ');
  return list.length <= words ? body : `${list.slice(0, words).join(' ')} …`;
}

export interface RowInput {
  readonly citation: Citation;
  readonly heading: string | null;
  readonly firstWords: string;
  readonly status: Status;
  readonly note?: string;
  readonly alineaLetters?: boolean;
  readonly ownText?: string;
  /** where the text numbers it otherwise than article, número, alínea (e.g. "art. 9.º II 3.") */
  readonly label?: string;
}

export function traceRow(i: RowInput): TraceRow {
  const base: RowBase = {
    key: citationKey(i.citation),
    citation: i.citation,
    label: i.label ?? provisionLabel(i.citation, i.alineaLetters, i.ownText),
    heading: i.heading,
    firstWords: i.firstWords,
    ...(i.note === undefined ? {} : { note: i.note }),
  };
  return Object.freeze({ ...base, ...i.status });
}
