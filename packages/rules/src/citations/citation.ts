/**
 * A citation names the provision a rule applies: diploma, article, número, alínea and sub-alínea, and which
 * wording (an amending diploma that re-wrote it). Its `key` finds the PT and ZH text in the citation files.
 */
export interface Citation {
  /** e.g. "89/2025" (Despacho do Secretário para a Economia e Finanças n.º 89/2025) */
  readonly diploma: string;
  /** 0 = the despacho's own numbered paragraphs; 1.. = articles of the annexed rules */
  readonly article: number;
  readonly numero?: number;
  readonly alinea?: number;
  readonly subalinea?: number;
  /** the amending diploma whose wording applies, when it is not the original one */
  readonly wording?: string;
}

export function citationKey(c: Citation): string {
  let key = `${c.diploma} art.${c.article}`;
  if (c.numero !== undefined) key += ` n.${c.numero}`;
  if (c.alinea !== undefined) key += ` al.${c.alinea}`;
  if (c.subalinea !== undefined) key += ` sub.${c.subalinea}`;
  if (c.wording !== undefined) key += ` [${c.wording}]`;
  return key;
}

/** Portuguese legal form: "Despacho n.º 89/2025, art. 13.º, alínea 4), (1)". */
export function formatCitation(c: Citation): string {
  const parts = [`Despacho n.º ${c.diploma}`];
  parts.push(c.article === 0 ? 'despacho' : `art. ${c.article}.º`);
  if (c.numero !== undefined) parts.push(`n.º ${c.numero}`);
  if (c.alinea !== undefined) parts.push(`alínea ${c.alinea})`);
  if (c.subalinea !== undefined) parts.push(`(${c.subalinea})`);
  const text = parts.join(', ');
  return c.wording === undefined ? text : `${text} (redacção do Despacho n.º ${c.wording})`;
}

/** Builder: cite('89/2025', 13, { alinea: 4, subalinea: 1 }). Frozen so shared citations cannot be edited. */
export const cite = (
  diploma: string,
  article: number,
  at: Omit<Citation, 'diploma' | 'article'> = {},
): Citation => Object.freeze({ diploma, article, ...at });
