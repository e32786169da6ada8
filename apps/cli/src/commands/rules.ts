import { parseArgs } from 'node:util';
import { RULE_SETS, ruleSetFor, type Game } from '@table-audit/rules';
import { json, out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit rules [--game f3cp] [--date YYYY-MM-DD | --at ISO-8601-INSTANT] [--json]

Without --date/--at: lists the rule-set registry. With them: the rule set that governs a round of --game on that
Macau local date (UTC+8), or at that instant (e.g. --at 2025-11-17T16:30:00Z is 2025-11-18 in Macau).`;

export const rulesCommand: Command = {
  name: 'rules',
  summary: 'the rule-set registry: which rules govern a game on a date',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        game: { type: 'string', default: 'f3cp' },
        date: { type: 'string' },
        at: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (values.date === undefined && values.at === undefined) {
      const rows = RULE_SETS.map((e) => ({
        id: e.id,
        game: e.game,
        diplomas: e.diplomas,
        from: e.from,
        to: e.to,
        implemented: e.rules !== null,
      }));
      if (values.json) out(json(rows));
      else
        for (const r of rows)
          out(
            `${r.id.padEnd(20)} ${r.game.padEnd(15)} ${r.from} .. ${(r.to ?? 'in force').padEnd(10)} ${r.implemented ? 'implemented' : 'not implemented'}  ${r.diplomas.join(' + ')}`,
          );
      return 0;
    }
    let when: string | number;
    if (values.at !== undefined) {
      when = Date.parse(values.at);
      if (Number.isNaN(when))
        throw new UsageError(`--at "${values.at}" is not an ISO-8601 instant such as 2025-11-17T16:30:00Z`);
    } else when = values.date!;
    const found = ruleSetFor(values.game as Game, when);
    if (values.json) out(json(found.status === 'implemented' ? { ...found, rules: found.rules.id } : found));
    else if (found.status === 'implemented')
      out(`${found.localDate}: ${found.entry.id} (${found.entry.diplomas.join(' + ')})`);
    else out(`${found.localDate}: ${found.reason}`);
    return found.status === 'implemented' ? 0 : 1;
  },
};
