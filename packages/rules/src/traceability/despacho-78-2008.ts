import { cite, type Citation } from '../citations/citation.ts';
import { code, implemented, noCode, notImplemented, provision, RULES, TESTS as T } from './shared.ts';
import type { DiplomaTrace, Status, TraceRow } from './types.ts';

/**
 * Despacho 78/2008, Regulamento Oficial do Jogo «Fortune Poker de 3 Cartas» (f3cp-2008, and f3cp-2008a with
 * art. 9.º as re-worded by 97/2008). Not implemented yet: every rule names the rule set that will implement it.
 */
const D = '78/2008';
const BOTH = notImplemented('f3cp-2008', 'f3cp-2008a');
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

const p = (c: Citation, firstWords: string, status: Status = BOTH, note?: string): TraceRow =>
  provision(c, HEADINGS[c.article] ?? null, firstWords, status, note === undefined ? {} : { note });

// 97/2008 replaced art. 9.º from its entry into force; its alíneas 7)-9) are lost, so these stay in f3cp-2008a
const KEPT_BY_97 = 'kept in f3cp-2008a: the 97/2008 wording of 7)–9) is lost (AMENDMENTS.md)';
const ONLY_2008 = notImplemented('f3cp-2008');

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
      implemented([code(RULES.registry, 'RULE_SETS', 'ruleSetFor')], [T.registry]),
    ),
    p(
      at(1),
      'O material do «Fortune Poker de 3 Cartas» inclui:',
      noCode('introduces the list of equipment in its alíneas'),
    ),
    p(at(1, undefined, 1), 'Um baralho de cinquenta e duas cartas'),
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
    p(at(2, 1), 'Em cada tabuleiro de jogo há oito lugares, incluindo o lugar do «croupier»'),
    p(
      at(2, 2),
      'O tabuleiro de jogo, por cada lugar destinado aos jogadores, tem três espaços para a marcação de apostas',
      noCode('the layout of the betting spaces on the table cloth: furniture, not in the events'),
    ),
    p(at(3), 'As cartas do jogo podem ser baralhadas de duas formas alternativas:'),
    p(
      at(3, undefined, 1),
      'O «croupier» baralha manualmente as cartas que, previamente, cortou com uma carta de corte …',
    ),
    p(
      at(3, undefined, 2),
      'Utiliza o baralhador automático de cartas, sendo as cartas baralhadas mecanicamente e sem necessidade de corte',
    ),
    p(at(4), 'As cartas são valoradas, por ordem decrescente, de acordo com os seguintes critérios:'),
    p(at(4, undefined, 1), 'Valor facial de cada carta: Ás, Rei (K), Dama (Q), Valete (J), 10, 9, …'),
    p(
      at(4, undefined, 2),
      'Sequência das cartas: «Ás, Rei (K), Dama (Q)», «Rei (K), Dama (Q), Valete (J)», …',
    ),
    p(at(5, 1), 'Os jogadores podem seleccionar as seguintes duas modalidades de apostas:'),
    p(at(5, 1, 1), 'Aposta inicial (Ante bet)'),
    p(at(5, 1, 2), 'Aposta num Par Superior (Pair Plus bet)'),
    p(
      at(5, 2),
      'Os jogadores podem optar por uma aposta simples ou por uma aposta que combine as modalidades …',
    ),
    p(at(6), 'Na colocação das apostas, os jogadores devem observar as seguintes regras:'),
    p(at(6, undefined, 1), 'As apostas devem respeitar os limites mínimo e máximo afixados na mesa'),
    p(
      at(6, undefined, 2),
      'As apostas só podem ser efectuadas na própria «mão», sendo vedado aos jogadores colocar apostas em conjunto …',
    ),
    p(
      at(6, undefined, 3),
      'Após distribuição, em cada jogada, da primeira carta, não podem aceitar-se novas apostas',
    ),
    p(
      at(6, undefined, 4),
      'É proibido segurar as cartas do jogo fora da banca e apenas os jogadores sentados podem segurá-las',
    ),
    p(
      at(6, undefined, 5),
      'Verificado o cumprimento das regras previstas nas alíneas anteriores, inicia-se a jogada …',
      noCode('says the round starts once 1)–4) are met: no rule of its own beyond them'),
    ),
    p(at(7), 'As cartas são distribuídas do seguinte modo:'),
    p(
      at(7, undefined, 1),
      'Quando o «croupier» utiliza o «shoe», deve distribuir três cartas, uma de cada vez, da esquerda para a direita …',
    ),
    p(
      at(7, undefined, 2),
      'Quando o «croupier» utiliza o baralhador automático, deve distribuir três cartas de cada vez …',
    ),
    p(at(8), 'A graduação das combinações de cartas («mãos»), por ordem decrescente, é a seguinte:'),
    p(
      at(8, undefined, 1),
      '«Sequência de Naipe» (Straight flush): três cartas do mesmo naipe, em sequência - K, Q, J é a combinação de valor mais elevado …',
    ),
    p(at(8, undefined, 2), '«Trio» (Three of a kind): três cartas do mesmo valor (v.g. K, K, K) …'),
    p(
      at(8, undefined, 3),
      '«Sequência» (Straight): três cartas de diferentes naipes em sequência (v.g. 6, 7, 8) …',
    ),
    p(
      at(8, undefined, 4),
      '«Naipe ou Cor» (Flush): três cartas do mesmo naipe, sem sequência (v.g. 10, 7, 5) …',
    ),
    p(
      at(8, undefined, 5),
      '«Par» (One pair): duas cartas do mesmo valor e uma carta de valor diferente, denominada «kicker» …',
    ),
    p(at(8, undefined, 6), '«Três cartas diferentes» (Three odd cards): três cartas diferentes …'),
    p(at(9), 'Na abertura do jogo devem ser observados os seguintes procedimentos:', ONLY_2008),
    p(
      at(9, undefined, 1),
      'Os jogadores que decidam jogar contra a «mão» do «croupier», devem efectuar uma aposta adicional …',
      ONLY_2008,
    ),
    p(
      at(9, undefined, 2),
      'Os jogadores que optem por não jogar, perdem a «mão», sendo as cartas e a aposta inicial recolhidas …',
      ONLY_2008,
    ),
    p(
      at(9, undefined, 3),
      'Os jogadores que, juntamente com a sua aposta inicial, façam uma aposta no Par Superior estão obrigados …',
      ONLY_2008,
    ),
    p(
      at(9, undefined, 4),
      'Ao «croupier» só é permitido jogar contra os restantes jogadores quando tiver uma «mão» de valor igual ou superior à Dama (Q)',
      ONLY_2008,
    ),
    p(
      at(9, undefined, 5),
      'Se o valor da «mão» do «croupier» for inferior ao valor da Dama (Q), as apostas iniciais são pagas na proporção de 1 para 1 …',
      ONLY_2008,
    ),
    p(
      at(9, undefined, 6),
      'Se o valor da «mão» do «croupier» habilitado a jogar for inferior à dos jogadores …',
      ONLY_2008,
    ),
    p(
      at(9, undefined, 7),
      'Se o valor da «mão» do «croupier» lhe permitir jogar e for superior à dos jogadores, o «croupier» recolhe …',
      BOTH,
      KEPT_BY_97,
    ),
    p(
      at(9, undefined, 8),
      'Independentemente do valor da «mão» do «croupier», os jogadores que tenham uma «mão» correspondente … prémio adicional',
      BOTH,
      KEPT_BY_97,
    ),
    p(at(9, undefined, 8, 1), '« Sequência de Naipe» (Straight flush): 5 para 1', BOTH, KEPT_BY_97),
    p(at(9, undefined, 8, 2), '«Trio» (Three of a kind): 4 para 1', BOTH, KEPT_BY_97),
    p(at(9, undefined, 8, 3), '«Sequência» (Straight): 1 para 1', BOTH, KEPT_BY_97),
    p(
      at(9, undefined, 9),
      'O «croupier» procede, de seguida, à verificação das perdas e ganhos nas apostas no Par Superior …',
      BOTH,
      KEPT_BY_97,
    ),
    p(at(10), 'As apostas vencedoras colocadas no Par Superior são pagas da forma seguinte:'),
    p(at(10, undefined, 1), '«Sequência de Naipe» (Straight flush): 40 para 1'),
    p(at(10, undefined, 2), '«Trio» (Three of a kind): 25 para 1'),
    p(at(10, undefined, 3), '«Sequência» (Straight): 5 para 1'),
    p(at(10, undefined, 4), '«Naipe ou cor» (Flush): 4 para 1'),
    p(at(10, undefined, 5), '«Par» (One pair): 1 para 1'),
    p(
      at(11),
      'Em caso de distribuição irregular das cartas devem ser observados os seguintes procedimentos:',
    ),
    p(
      at(11, undefined, 1),
      'Qualquer irregularidade verificada na distribuição ou no número de cartas torna as apostas nulas e inválida a jogada …',
    ),
    p(
      at(11, undefined, 2),
      'A exposição inadvertida de uma ou mais cartas no decurso da distribuição não gera a invalidade da jogada …',
    ),
    p(
      at(11, undefined, 3),
      'Se as cartas forem distribuídas inadvertidamente a uma «mão» que não tenha colocado qualquer tipo de aposta …',
    ),
    p(
      at(11, undefined, 4),
      'Se durante a distribuição ocorrer uma falha de funcionamento do baralhador de cartas, a jogada é inválida …',
    ),
  ],
});
