import { cite, type Citation } from '../citations/citation.ts';
import { code, implemented, provision, RULES, TESTS as T } from './shared.ts';
import type { DiplomaTrace } from './types.ts';

/**
 * Despacho 97/2008: new wording of art. 9.º of the 78/2008 rules (f3cp-2008a). Known only in part
 * (shared/regulations/AMENDMENTS.md): the PT stops after alínea 1), the official ZH after alínea (六).
 */
const HEADING = 'Procedimentos de jogo e prémios';
const SETTLE = code('packages/rules/src/f3cp/settle/2008.ts', 'settleF3cp2008Round', 'citations2008');
const RULE_SET = code('packages/rules/src/f3cp/rule-set-2008.ts', 'F3CP_2008A', 'art9');
// f3cp-2008a cites this wording for art. 9.º 1)-6) (art9 in rule-set-2008.ts); 7)-9) stay in 78/2008's (H5)
const A = implemented([SETTLE, RULE_SET], ['packages/rules/test/settle-2008.test.ts']);
const at = (alinea?: number): Citation =>
  cite('78/2008', 9, { ...(alinea === undefined ? {} : { alinea }), wording: '97/2008' });
const ZH_ONLY = 'PT text lost; first words from the official ZH';

export const DESPACHO_97_2008: DiplomaTrace = Object.freeze({
  id: '97/2008',
  title: 'Despacho n.º 97/2008 — new wording of art. 9.º of the «Fortune Poker de 3 Cartas» rules of 78/2008',
  source: 'shared/regulations/AMENDMENTS.md',
  ruleSets: ['f3cp-2008a'],
  notes: [
    'The stored PT ends at the start of alínea 2), the ZH at the start of alínea (七): alíneas 7)–9) of the new wording are unknown and 78/2008 art. 9.º 7)–9) are kept (their rows under 78/2008 name f3cp-2008a).',
    'The entry-into-force clause is in the lost part: the registry dates f3cp-2008a from 2008-12-16, the day after publication (assumed).',
    'Revoked with 78/2008 by Despacho 89/2025 from 2025-11-11.',
  ],
  rows: [
    provision(
      cite('97/2008', 0, { numero: 1 }),
      null,
      'O artigo 9.º do Regulamento Oficial do Jogo «Fortune Poker de 3 Cartas» … passa a ter a seguinte redacção',
      implemented(
        [code(RULES.registry, 'RULE_SETS', 'ruleSetFor')],
        [T.registry, 'packages/rules/test/f3cp/boundary-2008-2025.test.ts'],
      ),
      { note: 'the registry switches to f3cp-2008a on 2008-12-16 (entry into force assumed: H5)' },
    ),
    provision(at(), HEADING, 'Na abertura do jogo devem ser observados os seguintes procedimentos:', A),
    provision(
      at(1),
      HEADING,
      'Os jogadores que decidam jogar contra a «mão» do «croupier», devem efectuar uma aposta adicional …',
      A,
    ),
    provision(at(2), HEADING, '如選擇不繼續博彩,則博彩者一門輸掉;莊荷收回前者的紙牌及下注額', A, {
      note: ZH_ONLY,
    }),
    provision(at(3), HEADING, '博彩者在投注原注後再投注於Pair Plus bet時,必須加注', A, { note: ZH_ONLY }),
    provision(at(4), HEADING, '莊荷持有點數相等於“Q”牌或高於“Q”牌時,方可跟其餘的博彩者對玩', A, {
      note: ZH_ONLY,
    }),
    provision(at(5), HEADING, '如莊荷一門的點數少於“Q”,則以一賠一的倍率派發原注,加注退回博彩者', A, {
      note: ZH_ONLY,
    }),
    provision(
      at(6),
      HEADING,
      '如莊荷得與博彩者進行博彩,而莊荷所持牌的點數低於博彩者所持牌的點數,則以一賠一的倍率派發原注和加注',
      A,
      { note: ZH_ONLY },
    ),
  ],
});
