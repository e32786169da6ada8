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
  const portaria = c.diploma.startsWith('Portaria ');
  const parts = [
    portaria ? `Portaria n.º ${c.diploma.slice('Portaria '.length)}` : `Despacho n.º ${c.diploma}`,
  ];
  parts.push(c.article === 0 ? (portaria ? 'portaria' : 'despacho') : `art. ${c.article}.º`);
  if (c.numero !== undefined) parts.push(`n.º ${c.numero}`);
  if (c.alinea !== undefined) parts.push(`alínea ${c.alinea})`);
  if (c.subalinea !== undefined) parts.push(`(${c.subalinea})`);
  const text = parts.join(', ');
  return c.wording === undefined ? text : `${text} (redacção do Despacho n.º ${c.wording})`;
}

export class CitationSyntaxError extends Error {
  override readonly name = 'CitationSyntaxError';
}

// Each part of a citation in either form: the key ("art.13 n.2 al.4 sub.1") or the Portuguese legal form that
// formatCitation prints ("art. 13.º, n.º 2, alínea 4), (1)"), so a printed citation can be pasted back.
const ORDINAL = String.raw`(?:\.?\s*[º°o])?`;
const PARTS: readonly { field: 'article' | 'numero' | 'alinea' | 'subalinea'; re: RegExp }[] = [
  { field: 'article', re: new RegExp(String.raw`^(?:art\.?|artigo)\s*(\d+)${ORDINAL}`, 'i') },
  { field: 'article', re: /^despacho\b/i },
  { field: 'article', re: /^portaria\b/i },
  { field: 'numero', re: /^(?:n\.?\s*[º°o]?|número)\s*(\d+)/i },
  { field: 'alinea', re: /^(?:al\.?|alínea)\s*(\d+)\)?/i },
  { field: 'subalinea', re: /^(?:sub\.?|subalínea)\s*(\d+)\)?/i },
  { field: 'subalinea', re: /^\((\d+)\)/ },
];
const ORDER = ['article', 'numero', 'alinea', 'subalinea'] as const;

/**
 * Reads a citation back from its key ("89/2025 art.15 n.5", "89/2025 art.7 n.1 al.2 [94/2025]") or from the
 * Portuguese form formatCitation prints ("Despacho n.º 89/2025, art. 15.º, n.º 5"). Throws a CitationSyntaxError
 * naming the part it could not read.
 */
export function parseCitation(text: string): Citation {
  const example = 'e.g. "89/2025 art.15 n.5" or "Despacho n.º 89/2025, art. 15.º, n.º 5"';
  const fail = (why: string): never => {
    throw new CitationSyntaxError(`cannot read the citation "${text}": ${why}; write it as ${example}`);
  };
  let rest = text.trim();
  let wording: string | undefined;
  const amended =
    /\s*\((?:redac[çc][ãa]o|reda[çc][ãa]o)\s+(?:do|dada\s+pelo)\s+Despacho\s+n\.?\s*[º°o]?\s*(\d+\/\d{4})\)$/i.exec(
      rest,
    ) ?? /\s*\[(\d+\/\d{4})\]$/.exec(rest);
  if (amended) {
    wording = amended[1];
    rest = rest.slice(0, amended.index);
  }
  const portaria = /^Portaria\s+(?:n\.?\s*[º°o]?\s*)?(\d+\/\d{2}\/M)\b/i.exec(rest);
  const head = portaria ?? /^(?:Despacho\s+n\.?\s*[º°o]?\s*)?(\d+\/\d{4})/i.exec(rest);
  if (!head) return fail('it does not start with a diploma such as 89/2025 or Portaria 51/89/M');
  const diploma = portaria ? `Portaria ${portaria[1]!.toUpperCase()}` : head[1]!;
  rest = rest.slice(head[0].length);
  const found: Partial<Record<(typeof ORDER)[number], number>> = {};
  let last = -1;
  while ((rest = rest.replace(/^[\s,]+/, ''))) {
    const part = PARTS.map((p) => ({ p, m: p.re.exec(rest) })).find((x) => x.m);
    if (!part) return fail(`"${rest}" is not an article, número, alínea or sub-alínea`);
    const at = ORDER.indexOf(part.p.field);
    if (at <= last) return fail(`"${part.m![0]}" comes after a part that should follow it`);
    last = at;
    found[part.p.field] = part.m![1] === undefined ? 0 : Number(part.m![1]);
    rest = rest.slice(part.m![0].length);
  }
  if (found.article === undefined) return fail('it names no article');
  return cite(diploma, found.article, {
    ...(found.numero === undefined ? {} : { numero: found.numero }),
    ...(found.alinea === undefined ? {} : { alinea: found.alinea }),
    ...(found.subalinea === undefined ? {} : { subalinea: found.subalinea }),
    ...(wording === undefined ? {} : { wording }),
  });
}

/** Builder: cite('89/2025', 13, { alinea: 4, subalinea: 1 }). Frozen so shared citations cannot be edited. */
export const cite = (
  diploma: string,
  article: number,
  at: Omit<Citation, 'diploma' | 'article'> = {},
): Citation => Object.freeze({ diploma, article, ...at });
