import { parseArgs } from 'node:util';
import { INTERPRETATIONS, interpretationsMarkdown } from '@table-audit/rules';
import { json, out, type Command } from './command.ts';

export const interpretationsCommand: Command = {
  name: 'interpretations',
  summary: 'the interpretation register (readings chosen where the law is unclear)',
  usage: 'Usage: table-audit interpretations [--json | --markdown]',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, markdown: { type: 'boolean' } },
    });
    if (values.json) out(json(INTERPRETATIONS));
    else if (values.markdown) out(interpretationsMarkdown());
    else for (const i of INTERPRETATIONS) out(`${i.id.padEnd(4)} ${i.question}\n     → ${i.reading}\n`);
    return 0;
  },
};
