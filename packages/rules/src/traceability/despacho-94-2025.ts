import { cite } from '../citations/citation.ts';
import { citedRow, handClass } from './despacho-89-2025.ts';
import { CHECKS, code, implemented, RULES, TESTS as T } from './shared.ts';
import { traceRow, type DiplomaTrace } from './types.ts';

/**
 * Despacho 94/2025: its paragraph 1 re-words art. 7.º of the 89/2025 rules. Only art. 7.º n.º 1 is known to
 * change (shared/regulations/AMENDMENTS.md); the new wording's rows carry the citation keys with "[94/2025]".
 */
const wording = '94/2025';
const at = (alinea?: number) =>
  cite('89/2025', 7, { numero: 1, ...(alinea === undefined ? {} : { alinea }), wording });

export const DESPACHO_94_2025: DiplomaTrace = Object.freeze({
  id: '94/2025',
  title: 'Despacho n.º 94/2025 — amends art. 7.º of the Fortune 3 Card Poker rules of 89/2025',
  source: 'shared/regulations/AMENDMENTS.md; f3cp-2025-despacho-89-2025-consolidated.pt.txt',
  ruleSets: ['f3cp-2025a'],
  notes: [
    'The stored text ends inside the new art. 7.º n.º 2 6): n.º 2 6)–7) and n.º 3 are kept as in 89/2025 (J9), and their rows are those of 89/2025.',
    'The entry-into-force clause is in the lost part: the registry dates f3cp-2025a from 2025-11-18, the usual day after publication (J9).',
    'No Chinese text of 94/2025 is held: the ZH of the amended alíneas is re-ordered from 89/2025.',
  ],
  rows: [
    traceRow({
      citation: cite('94/2025', 0, { numero: 1 }),
      heading: null,
      firstWords:
        'O artigo 7.º das Regras de Execução do Jogo Fortune Poker de Três Cartas … passa a ter a seguinte redacção',
      // the amendment is the rule set f3cp-2025a and the date the registry switches to it
      status: implemented(
        [code(RULES.registry, 'RULE_SETS', 'ruleSetFor'), code(RULES.ruleSet, 'F3CP_2025A')],
        [T.registry, T.three, T.settle],
      ),
    }),
    citedRow(
      at(),
      implemented(
        [
          code(RULES.three, 'classifyThree', 'handOrder', 'valueUnder'),
          code(RULES.ruleSet, 'F3CP_2025A', 'handOrderCitation'),
          code(RULES.settle, 'settleF3cpRound'),
          code(CHECKS.settlement, 'checkOutcome'),
        ],
        [T.three, T.settle, T.detection],
        ['F3CP.OUTCOME.MISDECLARED'],
      ),
    ),
    ...[1, 2, 3, 4, 5, 6].map((a) => citedRow(at(a), handClass(1, 'F3CP_2025A'))),
  ],
});
