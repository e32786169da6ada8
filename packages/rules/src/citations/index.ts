import craps2010 from './craps-2010.citations.json' with { type: 'json' };
import f3cp2025 from './f3cp-2025.citations.json' with { type: 'json' };
import f3cp2008 from './f3cp-2008.citations.json' with { type: 'json' };
import portarias51and52 from './portarias-51-52-89-m.citations.json' with { type: 'json' };
import { citationKey, type Citation } from './citation.ts';

export * from './citation.ts';

export interface Provision {
  key: string;
  diploma: string;
  article: number;
  numero: number | null;
  alinea: number | null;
  subalinea: number | null;
  wording: string;
  heading_pt?: string | null;
  heading_zh?: string | null;
  pt: string;
  zh: string;
  zh_derived?: boolean;
}

export interface Diploma {
  id: string;
  pt: string;
  zh: string;
  bulletin: string;
  inForce: string;
}

interface CitationFile {
  diplomas: Diploma[];
  provisions: Provision[];
  discrepancies: { key: string; note: string }[];
}

const files: CitationFile[] = [
  f3cp2025 as unknown as CitationFile,
  f3cp2008 as unknown as CitationFile,
  craps2010 as unknown as CitationFile,
  // no Chinese text is held for the 1989 portarias: their zh fields are empty, and `cite` says so
  portarias51and52 as unknown as CitationFile,
];

const byKey = new Map<string, Provision>();
for (const file of files) for (const p of file.provisions) byKey.set(p.key, p);

export const diplomas: readonly Diploma[] = files.flatMap((f) => f.diplomas);
export const textDiscrepancies = files.flatMap((f) => f.discrepancies);

/** The PT and ZH text of a cited provision, or undefined when the citation files do not hold it. */
export const provisionText = (c: Citation): Provision | undefined => byKey.get(citationKey(c));

export const allProvisions = (): Provision[] => [...byKey.values()];
