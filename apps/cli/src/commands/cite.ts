import { parseArgs } from 'node:util';
import {
  allProvisions,
  citationKey,
  parseCitation,
  textDiscrepancies,
  traceabilityMatrix,
  traceabilityText,
} from '@table-audit/rules';
import { json, out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit cite CITATION [--json]     e.g. table-audit cite "89/2025 art.13 al.4"
       table-audit cite --list | --discrepancies
       table-audit cite --matrix [--diploma D] [--status implemented|no-code-needed|not-implemented] [--json]

Prints the official Portuguese and Chinese text of a cited provision. CITATION is its key ("89/2025 art.15 n.5",
"89/2025 art.7 n.1 al.2 [94/2025]") or the Portuguese form findings print, pasted back
("Despacho n.º 89/2025, art. 13.º, alínea 4), (1)"). --matrix prints the traceability matrix: every provision of
every seed diploma with its code and tests, or why it needs none, or the rule set that will implement it.`;

export const citeCommand: Command = {
  name: 'cite',
  summary: 'the PT and ZH text of a provision the engine cites',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        list: { type: 'boolean' },
        discrepancies: { type: 'boolean' },
        matrix: { type: 'boolean' },
        diploma: { type: 'string' },
        status: { type: 'string' },
      },
    });
    if (values.matrix) {
      let matrix;
      try {
        matrix = traceabilityMatrix({ diploma: values.diploma, status: values.status });
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
      out(values.json ? json(matrix) : traceabilityText(matrix));
      return 0;
    }
    if (values.diploma !== undefined || values.status !== undefined)
      throw new UsageError('--diploma and --status go with --matrix');
    if (values.list) {
      for (const p of allProvisions()) out(p.key);
      return 0;
    }
    if (values.discrepancies) {
      for (const d of textDiscrepancies) out(`${d.key}: ${d.note}\n`);
      return 0;
    }
    const text = positionals.join(' ');
    if (!text) throw new UsageError('name a provision');
    let key: string;
    try {
      key = citationKey(parseCitation(text));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const p = allProvisions().find((x) => x.key === key);
    if (!p)
      throw new Error(
        `no provision ${key}${key === text ? '' : ` (read from "${text}")`} in the citation files; see table-audit cite --list`,
      );
    if (values.json) out(json(p));
    else
      out(
        `${p.key}\n\nPT: ${p.pt}\n\nZH: ${p.zh || '(no Chinese text of this diploma is held; none is invented)'}${p.zh_derived ? '\n(ZH re-ordered from the published text: 94/2025 has no known ZH text)' : ''}`,
      );
    return 0;
  },
};
