import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  formatCards,
  formatCitation,
  formatMop,
  parseCard,
  ruleSetFor,
  f3cpRules,
  settleF3cpRound,
  type F3cpRoundFacts,
  type F3cpSettlement,
  type F3cpRuleSet,
} from '@table-audit/rules';
import { json, out, UsageError, type Command } from './command.ts';

const usage = `Usage: table-audit settle FILE.json [--rules ID] [--json]

Settles the rounds in FILE.json with the rules engine and prints every bet's outcome with its article. The file:
  { "rounds": [ { "id": "r1", "date": "2025-11-20",
                  "seats": [ { "seat": 1, "cards": ["Qh","6d","4c"], "decision": "play",
                               "bets": { "ante": 10000, "play": 10000, "pairPlus": 5000 } } ],
                  "banker": ["Ks","9d","2c"],
                  "community": ["Ah","Kh"],                   (only with Progressive bets)
                  "jackpot": { "poolBefore": 25000000, "config": { … } } } ] }
Amounts are avos (1/100 MOP). The rule set comes from --rules, or from each round's Macau "date".`;

interface RoundInput extends Omit<F3cpRoundFacts, 'seats' | 'banker' | 'community'> {
  id?: string;
  date?: string;
  seats: { seat: number; cards: string[]; bets: Record<string, number>; decision?: 'play' | 'fold' }[];
  banker: string[];
  community?: string[];
}

export function parseRound(r: RoundInput, where: string): F3cpRoundFacts {
  if (!r || !Array.isArray(r.seats) || !Array.isArray(r.banker))
    throw new UsageError(`${where}: a round needs "seats" and "banker"`);
  const cards = (list: string[], what: string) => {
    try {
      return list.map(parseCard);
    } catch (e) {
      throw new UsageError(`${where}, ${what}: ${(e as Error).message}`);
    }
  };
  return {
    seats: r.seats.map((s) => ({
      seat: s.seat,
      cards: cards(s.cards ?? [], `seat ${s.seat}`),
      bets: s.bets ?? {},
      ...(s.decision ? { decision: s.decision } : {}),
    })),
    banker: cards(r.banker, 'banker'),
    ...(r.community ? { community: cards(r.community, 'community cards') } : {}),
    ...(r.jackpot ? { jackpot: r.jackpot } : {}),
    ...(r.voided ? { voided: r.voided } : {}),
  };
}

export function settlementText(s: F3cpSettlement): string {
  const lines = [
    `rule set ${s.ruleSetId}${s.voided ? `; round VOID (${s.voided})` : ''}`,
    `banker ${formatCards(s.banker.cards).join(' ')}: ${s.banker.hand}, ${s.banker.qualifies ? 'qualifies (Q or higher)' : 'does not qualify'}`,
  ];
  for (const seat of s.seats) {
    lines.push(
      `seat ${seat.seat} ${formatCards(seat.cards).join(' ')}: ${seat.hand}${seat.decision ? `, ${seat.decision}` : ''}${seat.versusBanker ? `, ${seat.versusBanker} than the banker` : ''}`,
    );
    for (const l of s.lines.filter((x) => x.seat === seat.seat)) {
      lines.push(
        `  ${l.bet.padEnd(13)} ${formatMop(l.amount).padStart(14)}  ${l.outcome.padEnd(4)}  net ${formatMop(l.net).padStart(15)}  ${l.basis}`,
      );
      lines.push(
        `  ${''.padEnd(13)} ${l.citations.map(formatCitation).join('; ')}${l.interpretations.length ? ` [${l.interpretations.join(', ')}]` : ''}`,
      );
    }
  }
  if (s.jackpot) {
    lines.push(
      `jackpot pool ${formatMop(s.jackpot.poolBefore)} → ${formatMop(s.jackpot.poolAfter)}${s.jackpot.communityRevealed ? '' : ' (community cards not revealed: no Progressive bet)'}`,
    );
    for (const p of s.jackpot.payments)
      lines.push(
        `  ${p.order}. seat ${p.seat} ${p.hand}: ${formatMop(p.amount)} (pool ${formatMop(p.poolBefore)} → ${formatMop(p.poolAfter)}${p.poolReset ? ', reset' : ''})`,
      );
  }
  lines.push(`interpretations used: ${s.interpretations.join(', ') || 'none'}`);
  return lines.join('\n');
}

export const settleCommand: Command = {
  name: 'settle',
  summary: 'settle rounds described in a JSON file, with the article behind every line',
  usage,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { rules: { type: 'string' }, json: { type: 'boolean' } },
    });
    if (positionals.length !== 1) throw new UsageError('name one JSON file');
    const file = positionals[0]!;
    let doc: { rounds?: RoundInput[] };
    try {
      doc = JSON.parse(await readFile(file, 'utf8')) as { rounds?: RoundInput[] };
    } catch (e) {
      throw new UsageError(`${file}: ${(e as Error).message}`);
    }
    if (!Array.isArray(doc.rounds)) throw new UsageError(`${file}: expected an object with a "rounds" array`);
    const results: unknown[] = [];
    let failures = 0;
    doc.rounds.forEach((r, i) => {
      const where = `${file} round ${r.id ?? i + 1}`;
      let rules: F3cpRuleSet;
      if (values.rules) rules = f3cpRules(values.rules);
      else {
        if (!r.date) throw new UsageError(`${where}: give the round a "date" (Macau local) or pass --rules`);
        const found = ruleSetFor('f3cp', r.date);
        if (found.status !== 'implemented') {
          failures++;
          results.push({ id: r.id, error: found.reason });
          if (!values.json) out(`${where}: ${found.reason}\n`);
          return;
        }
        rules = found.rules;
      }
      try {
        const s = settleF3cpRound(parseRound(r, where), rules);
        results.push({ id: r.id, settlement: s });
        if (!values.json) out(`${where}\n${settlementText(s)}\n`);
      } catch (e) {
        failures++;
        results.push({ id: r.id, error: (e as Error).message });
        if (!values.json) out(`${where}: ${(e as Error).message}\n`);
      }
    });
    if (values.json) out(json(results));
    return failures > 0 ? 1 : 0;
  },
};
