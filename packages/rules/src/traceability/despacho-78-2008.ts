import { cite, type Citation } from '../citations/citation.ts';
import { code, implemented, noCode, provision, RULES, TESTS as T } from './shared.ts';
import type { CodeRef, DiplomaTrace, Status, TraceRow } from './types.ts';

/**
 * Despacho 78/2008, Regulamento Oficial do Jogo «Fortune Poker de 3 Cartas» (f3cp-2008, and f3cp-2008a with
 * art. 9.º as re-worded by 97/2008): rule sets in f3cp/rule-set-2008.ts, settlement in f3cp/settle/2008.ts, checks
 * F3CP08.* in f3cp/checks/f3cp08-*.ts (the family re-stated from 2025 in f3cp08-index.ts).
 */
const D = '78/2008';
const F = 'packages/rules/src/f3cp';
const RULE_SET = code(`${F}/rule-set-2008.ts`, 'F3CP_2008', 'F3CP_2008A');
const SETTLE = code(`${F}/settle/2008.ts`, 'settleF3cp2008Round');
const COUNTERPARTS = code(`${F}/checks/f3cp08-index.ts`, 'PROCEDURE_CHECKS_2008', 'SETTLEMENT_CHECKS_2008');
const BETS_08 = code(`${F}/checks/f3cp08-art-05-09-bets.ts`, 'checkBetNotOffered', 'checkPlayRequired');
const IRREG_08 = code(
  `${F}/checks/f3cp08-art-11-irregularities.ts`,
  'checkNotVoided2008',
  'checkWronglyVoided2008',
  'checkShufflerNotReplaced',
);
const T08 = {
  settle: 'packages/rules/test/settle-2008.test.ts',
  math: 'packages/rules/test/math-2008.test.ts',
  index: 'packages/rules/test/f3cp/f3cp08-index.test.ts',
  boundary: 'packages/rules/test/f3cp/boundary-2008-2025.test.ts',
  validate: 'packages/rules/test/f3cp/validate-2008.test.ts',
};
const check08 = (checks: string[], ...more: CodeRef[]): Status =>
  implemented([COUNTERPARTS, ...more], [T08.index], checks);
const settled = (checks: string[] = ['F3CP08.PAYOUT.MISMATCH']): Status =>
  implemented([SETTLE, RULE_SET, COUNTERPARTS], [T08.settle, T08.index, T08.math], checks);
const INTRO = (what: string): Status =>
  noCode(`introduces ${what} listed in its alíneas, each with its own row`);
const at = (article: number, numero?: number, alinea?: number, subalinea?: number): Citation =>
  cite(D, article, {
    ...(numero === undefined ? {} : { numero }),
    ...(alinea === undefined ? {} : { alinea }),
    ...(subalinea === undefined ? {} : { subalinea }),
  });

const HEADINGS: Record<number, string> = {
  1: 'Material',
  2: 'Número de lugares',
  3: 'Procedimentos iniciais',
  4: 'Valor das cartas',
  5: 'Apostas',
  6: 'Regras aplicáveis às apostas',
  7: 'Distribuição de cartas',
  8: 'Combinações de cartas',
  9: 'Procedimentos de jogo e prémios',
  10: 'Prémios das apostas no Par Superior (Pair Plus bet)',
  11: 'Irregularidades',
};

const p = (c: Citation, firstWords: string, status: Status, note?: string): TraceRow =>
  provision(c, HEADINGS[c.article] ?? null, firstWords, status, note === undefined ? {} : { note });

// 97/2008 replaced art. 9.º from its entry into force; its alíneas 7)-9) are lost, so these stay in f3cp-2008a
const KEPT_BY_97 = 'kept in f3cp-2008a: the 97/2008 wording of 7)–9) is lost (AMENDMENTS.md; H5)';
const ONLY_2008 = 'in f3cp-2008; f3cp-2008a cites the 97/2008 wording of this alínea (see Despacho 97/2008)';

export const DESPACHO_78_2008: DiplomaTrace = Object.freeze({
  id: D,
  title: 'Despacho n.º 78/2008 — Regulamento Oficial do Jogo «Fortune Poker de 3 Cartas»',
  source: 'f3cp-2008-despacho-78-2008.pt.txt',
  ruleSets: ['f3cp-2008', 'f3cp-2008a'],
  notes: [
    'Revoked by Despacho 89/2025 (its n.º 4) from 2025-11-11.',
    'Art. 9.º 1)–6) in the wording of 97/2008 are listed under Despacho 97/2008.',
  ],
  rows: [
    p(
      at(0, 1),
      'É autorizada a exploração do jogo de fortuna ou azar denominado «Fortune Poker de 3 Cartas»',
      noCode('authorises the game: licensing, nothing to re-derive'),
    ),
    p(
      at(0, 2),
      'É aprovado o regulamento oficial do jogo «Fortune Poker de 3 Cartas», em anexo',
      noCode('approves the annexed rules; each of their provisions has its own row'),
    ),
    // the registry dates the first F3CP rule set from the day after publication (2008-08-12)
    p(
      at(0, 3),
      'O presente despacho entra em vigor no dia seguinte ao da sua publicação',
      implemented(
        [code(RULES.registry, 'RULE_SETS', 'ruleSetFor')],
        [T.registry, T08.boundary, T08.index],
        ['F3CP08.EVENT.TIME_OUT_OF_LINE'],
      ),
    ),
    p(
      at(1),
      'O material do «Fortune Poker de 3 Cartas» inclui:',
      noCode('introduces the list of equipment in its alíneas'),
    ),
    p(at(1, undefined, 1), 'Um baralho de cinquenta e duas cartas', check08(['F3CP08.CARDS.INTEGRITY'])),
    p(
      at(1, undefined, 2),
      'Um «shoe» e uma carta de corte',
      noCode('equipment; how the shoe and the cut card are used is art. 3.º 1) and 7.º 1)'),
    ),
    p(
      at(1, undefined, 3),
      'Um baralhador automático de cartas',
      noCode('equipment; how the shuffler is used, and its failures, are art. 3.º 2), 7.º 2) and 11.º 4)'),
    ),
    p(
      at(2, 1),
      'Em cada tabuleiro de jogo há oito lugares, incluindo o lugar do «croupier»',
      check08(['F3CP08.BET.NO_SUCH_SEAT', 'F3CP08.TABLE.RECONFIGURED'], code(RULES.validate, 'MAX_SEATS')),
    ),
    p(
      at(2, 2),
      'O tabuleiro de jogo, por cada lugar destinado aos jogadores, tem três espaços para a marcação de apostas',
      noCode('the layout of the betting spaces on the table cloth: furniture, not in the events'),
    ),
    p(
      at(3),
      'As cartas do jogo podem ser baralhadas de duas formas alternativas:',
      INTRO('the two ways to shuffle'),
    ),
    p(
      at(3, undefined, 1),
      'O «croupier» baralha manualmente as cartas que, previamente, cortou com uma carta de corte …',
      check08(['F3CP08.SHUFFLE.PROCEDURE']),
    ),
    p(
      at(3, undefined, 2),
      'Utiliza o baralhador automático de cartas, sendo as cartas baralhadas mecanicamente e sem necessidade de corte',
      check08(['F3CP08.SHUFFLE.PROCEDURE']),
    ),
    p(
      at(4),
      'As cartas são valoradas, por ordem decrescente, de acordo com os seguintes critérios:',
      INTRO('the criteria'),
    ),
    p(
      at(4, undefined, 1),
      'Valor facial de cada carta: Ás, Rei (K), Dama (Q), Valete (J), 10, 9, …',
      implemented([code(RULES.three, 'classifyThree'), SETTLE], [T.three, T08.settle]),
    ),
    p(
      at(4, undefined, 2),
      'Sequência das cartas: «Ás, Rei (K), Dama (Q)», «Rei (K), Dama (Q), Valete (J)», …',
      implemented([code(RULES.three, 'classifyThree'), SETTLE, RULE_SET], [T.three, T08.settle, T08.math]),
    ),
    p(
      at(5, 1),
      'Os jogadores podem seleccionar as seguintes duas modalidades de apostas:',
      implemented(
        [BETS_08, code(RULES.validate, 'f3cpEventProblems'), SETTLE],
        [T08.validate, T08.settle],
        ['F3CP08.BET.NOT_OFFERED'],
      ),
    ),
    p(at(5, 1, 1), 'Aposta inicial (Ante bet)', settled()),
    p(at(5, 1, 2), 'Aposta num Par Superior (Pair Plus bet)', settled()),
    p(
      at(5, 2),
      'Os jogadores podem optar por uma aposta simples ou por uma aposta que combine as modalidades …',
      settled([]),
    ),
    p(
      at(6),
      'Na colocação das apostas, os jogadores devem observar as seguintes regras:',
      INTRO('the betting rules'),
    ),
    p(
      at(6, undefined, 1),
      'As apostas devem respeitar os limites mínimo e máximo afixados na mesa',
      check08(['F3CP08.BET.LIMITS', 'F3CP08.TABLE.RECONFIGURED']),
    ),
    p(
      at(6, undefined, 2),
      'As apostas só podem ser efectuadas na própria «mão», sendo vedado aos jogadores colocar apostas em conjunto …',
      check08(['F3CP08.BET.OTHER_HAND']),
    ),
    p(
      at(6, undefined, 3),
      'Após distribuição, em cada jogada, da primeira carta, não podem aceitar-se novas apostas',
      check08([
        'F3CP08.BET.LATE',
        'F3CP08.BET.PLAY_BEFORE_DEAL',
        'F3CP08.ROUND.NOT_STARTED',
        'F3CP08.EVENT.SEQUENCE',
      ]),
    ),
    p(
      at(6, undefined, 4),
      'É proibido segurar as cartas do jogo fora da banca e apenas os jogadores sentados podem segurá-las',
      check08(['F3CP08.CONDUCT.NON_SEATED_HANDLING']),
    ),
    p(
      at(6, undefined, 5),
      'Verificado o cumprimento das regras previstas nas alíneas anteriores, inicia-se a jogada …',
      noCode('says the round starts once 1)–4) are met: no rule of its own beyond them'),
    ),
    p(at(7), 'As cartas são distribuídas do seguinte modo:', check08(['F3CP08.EVENT.SEQUENCE'])),
    p(
      at(7, undefined, 1),
      'Quando o «croupier» utiliza o «shoe», deve distribuir três cartas, uma de cada vez, da esquerda para a direita …',
      check08(['F3CP08.DEAL.ORDER', 'F3CP08.DEAL.COUNT', 'F3CP08.DEAL.FACE_UP']),
    ),
    p(
      at(7, undefined, 2),
      'Quando o «croupier» utiliza o baralhador automático, deve distribuir três cartas de cada vez …',
      check08(['F3CP08.DEAL.ORDER', 'F3CP08.DEAL.COUNT', 'F3CP08.DEAL.FACE_UP']),
    ),
    p(
      at(8),
      'A graduação das combinações de cartas («mãos»), por ordem decrescente, é a seguinte:',
      settled(['F3CP08.OUTCOME.MISDECLARED']),
    ),
    p(
      at(8, undefined, 1),
      '«Sequência de Naipe» (Straight flush): três cartas do mesmo naipe, em sequência - K, Q, J é a combinação de valor mais elevado …',
      settled([]),
    ),
    p(
      at(8, undefined, 2),
      '«Trio» (Three of a kind): três cartas do mesmo valor (v.g. K, K, K) …',
      settled([]),
    ),
    p(
      at(8, undefined, 3),
      '«Sequência» (Straight): três cartas de diferentes naipes em sequência (v.g. 6, 7, 8) …',
      settled([]),
    ),
    p(
      at(8, undefined, 4),
      '«Naipe ou Cor» (Flush): três cartas do mesmo naipe, sem sequência (v.g. 10, 7, 5) …',
      settled([]),
    ),
    p(
      at(8, undefined, 5),
      '«Par» (One pair): duas cartas do mesmo valor e uma carta de valor diferente, denominada «kicker» …',
      settled([]),
    ),
    p(
      at(8, undefined, 6),
      '«Três cartas diferentes» (Three odd cards): três cartas diferentes …',
      settled([]),
    ),
    p(
      at(9),
      'Na abertura do jogo devem ser observados os seguintes procedimentos:',
      settled([
        'F3CP08.PAYOUT.MISMATCH',
        'F3CP08.PAYOUT.REPEATED',
        'F3CP08.ROUND.NOT_CLOSED',
        'F3CP08.ROUND.EVENT_AFTER_CLOSE',
      ]),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 1),
      'Os jogadores que decidam jogar contra a «mão» do «croupier», devem efectuar uma aposta adicional …',
      check08(['F3CP08.BET.PLAY_NOT_EQUAL_ANTE', 'F3CP08.BET.PLAY_BEFORE_DEAL']),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 2),
      'Os jogadores que optem por não jogar, perdem a «mão», sendo as cartas e a aposta inicial recolhidas …',
      settled([]),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 3),
      'Os jogadores que, juntamente com a sua aposta inicial, façam uma aposta no Par Superior estão obrigados …',
      implemented([BETS_08, SETTLE], [T08.settle], ['F3CP08.PLAY.REQUIRED']),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 4),
      'Ao «croupier» só é permitido jogar contra os restantes jogadores quando tiver uma «mão» de valor igual ou superior à Dama (Q)',
      settled(['F3CP08.OUTCOME.MISDECLARED']),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 5),
      'Se o valor da «mão» do «croupier» for inferior ao valor da Dama (Q), as apostas iniciais são pagas na proporção de 1 para 1 …',
      settled([]),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 6),
      'Se o valor da «mão» do «croupier» habilitado a jogar for inferior à dos jogadores …',
      settled([]),
      ONLY_2008,
    ),
    p(
      at(9, undefined, 7),
      'Se o valor da «mão» do «croupier» lhe permitir jogar e for superior à dos jogadores, o «croupier» recolhe …',
      settled([]),
      KEPT_BY_97,
    ),
    p(
      at(9, undefined, 8),
      'Independentemente do valor da «mão» do «croupier», os jogadores que tenham uma «mão» correspondente … prémio adicional',
      settled([]),
      KEPT_BY_97,
    ),
    p(at(9, undefined, 8, 1), '« Sequência de Naipe» (Straight flush): 5 para 1', settled([]), KEPT_BY_97),
    p(at(9, undefined, 8, 2), '«Trio» (Three of a kind): 4 para 1', settled([]), KEPT_BY_97),
    p(at(9, undefined, 8, 3), '«Sequência» (Straight): 1 para 1', settled([]), KEPT_BY_97),
    p(
      at(9, undefined, 9),
      'O «croupier» procede, de seguida, à verificação das perdas e ganhos nas apostas no Par Superior …',
      settled([]),
      KEPT_BY_97,
    ),
    p(
      at(10),
      'As apostas vencedoras colocadas no Par Superior são pagas da forma seguinte:',
      settled(['F3CP08.PAYOUT.MISMATCH', 'F3CP08.PAYOUT.REPEATED']),
    ),
    p(at(10, undefined, 1), '«Sequência de Naipe» (Straight flush): 40 para 1', settled([])),
    p(at(10, undefined, 2), '«Trio» (Three of a kind): 25 para 1', settled([])),
    p(at(10, undefined, 3), '«Sequência» (Straight): 5 para 1', settled([])),
    p(at(10, undefined, 4), '«Naipe ou cor» (Flush): 4 para 1', settled([])),
    p(at(10, undefined, 5), '«Par» (One pair): 1 para 1', settled([])),
    p(
      at(11),
      'Em caso de distribuição irregular das cartas devem ser observados os seguintes procedimentos:',
      INTRO('the irregularities'),
    ),
    p(
      at(11, undefined, 1),
      'Qualquer irregularidade verificada na distribuição ou no número de cartas torna as apostas nulas e inválida a jogada …',
      implemented(
        [IRREG_08, COUNTERPARTS, SETTLE],
        [T08.index, T08.settle],
        [
          'F3CP08.IRREG.NOT_VOIDED',
          'F3CP08.IRREG.BETS_NOT_RETURNED',
          'F3CP08.ROUND.NOT_CLOSED',
          'F3CP08.ROUND.EVENT_AFTER_CLOSE',
        ],
      ),
    ),
    p(
      at(11, undefined, 2),
      'A exposição inadvertida de uma ou mais cartas no decurso da distribuição não gera a invalidade da jogada …',
      implemented([IRREG_08], [], ['F3CP08.IRREG.WRONGLY_VOIDED']),
    ),
    p(
      at(11, undefined, 3),
      'Se as cartas forem distribuídas inadvertidamente a uma «mão» que não tenha colocado qualquer tipo de aposta …',
      implemented(
        [IRREG_08, COUNTERPARTS],
        [T08.index],
        ['F3CP08.IRREG.WRONGLY_VOIDED', 'F3CP08.IRREG.VOID_CARDS_USED'],
      ),
    ),
    p(
      at(11, undefined, 4),
      'Se durante a distribuição ocorrer uma falha de funcionamento do baralhador de cartas, a jogada é inválida …',
      implemented(
        [IRREG_08, SETTLE, code(RULES.table, 'F3cpTable')],
        [T08.settle],
        ['F3CP08.IRREG.SHUFFLER_NOT_REPLACED', 'F3CP08.IRREG.NOT_VOIDED'],
      ),
    ),
  ],
});
