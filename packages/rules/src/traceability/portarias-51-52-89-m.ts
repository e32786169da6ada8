import { cite, type Citation } from '../citations/citation.ts';
import { code, implemented, noCode, provision } from './shared.ts';
import type { DiplomaTrace, Status, TraceRow } from './types.ts';

/**
 * Portaria 51/89/M (Regulamento Oficial do Jogo de 13 Cartas, thirteen-cards-1989) and Portaria 52/89/M
 * (Mah-Jong, mahjong-1989-deal; only art. 1.º–2.º of its regulation are held). The law is in
 * packages/rules/src/thirteen and packages/rules/src/mahjong (engines, checks on round facts, a labelled
 * facts-level simulation, the ta.thirteen.* and ta.mahjong.* events folded by the shared round fold
 * round-fold.ts), proven through the replay by services/replay/test/{thirteen,mahjong}-detection.test.ts. The
 * portaria's own articles are article 0, número N; the regulation's alíneas a), b)… are numbered 1, 2….
 */
const P51 = 'Portaria 51/89/M';
const P52 = 'Portaria 52/89/M';
const TH = 'packages/rules/src/thirteen/';
const MJD = 'packages/rules/src/mahjong/';
const TT = {
  rules: 'packages/rules/test/thirteen/rules.test.ts',
  checks: 'packages/rules/test/thirteen/checks.test.ts',
  detection: 'packages/rules/test/thirteen/detection.test.ts',
  solver: 'packages/rules/test/thirteen/solver.test.ts',
  mahjong: 'packages/rules/test/mahjong/deal.test.ts',
  mahjongEvents: 'packages/rules/test/mahjong/events.test.ts',
  replay: 'services/replay/test/thirteen-detection.test.ts',
  mahjongReplay: 'services/replay/test/mahjong-detection.test.ts',
} as const;
const th = (file: string, symbols: string[], tests: string[], checks: string[] = []): Status =>
  implemented([code(TH + file, ...symbols)], tests, checks);
const mjImpl = (file: string, symbols: string[], checks: string[]): Status =>
  implemented(
    [code(MJD + file, ...symbols), code(MJD + 'checks.ts', 'judgeMahjongDeal')],
    [TT.mahjong, TT.mahjongEvents, TT.mahjongReplay],
    checks,
  );
const FORMATIONS = th(
  'hands.ts',
  ['fiveKey', 'frontKey', 'tierPoints'],
  [TT.rules, TT.solver],
  ['THIRTEEN.PAYOUT.MISMATCH'],
);
const T13 = FORMATIONS;
const at = (diploma: string, article: number, numero?: number, alinea?: number): Citation =>
  cite(diploma, article, {
    ...(numero === undefined ? {} : { numero }),
    ...(alinea === undefined ? {} : { alinea }),
  });

const H13: Record<number, string> = {
  1: 'Material',
  2: 'Procedimento inicial',
  3: 'Lugares na mesa',
  4: 'Cartas mal distribuídas',
  5: 'Jogadores apostando no mesmo lugar',
  6: 'Valor das cartas',
  7: 'Arrumação das cartas',
  8: 'Ganho ou perda',
  9: 'Graduação de jogos',
  10: 'Vantagem para o banqueiro',
  11: 'Pagamento de prémios',
};
const t = (c: Citation, firstWords: string, status: Status = T13, label?: string): TraceRow =>
  provision(c, H13[c.article] ?? null, firstWords, status, {
    alineaLetters: true,
    ownText: 'portaria',
    ...(label === undefined ? {} : { label }),
  });
const formation = (n: number, firstWords: string): TraceRow =>
  t(at(P51, 9, 2, n), firstWords, FORMATIONS, `art. 9.º II ${n}.`);

export const PORTARIA_51_89_M: DiplomaTrace = Object.freeze({
  id: P51,
  title: 'Portaria n.º 51/89/M — Regulamento Oficial do Jogo de 13 Cartas',
  source: 'thirteen-cards-and-mahjong-portarias-51-52-89-M.pt.txt',
  ruleSets: ['thirteen-cards-1989'],
  notes: [
    'No amendment found. The portaria has no entry-into-force article: the registry dates it from its publication, 1989-03-20.',
    'Art. 9.º is divided into I (naturals) and II (the other formations, 1.–10.); they are keyed as números 1 and 2, the formations of II as alíneas.',
  ],
  rows: [
    t(
      at(P51, 0, 1),
      'É aprovado o Regulamento Oficial do Jogo de 13 Cartas, em anexo',
      noCode('approves the annexed rules; each of their provisions has its own row'),
    ),
    t(
      at(P51, 0, 2),
      'É revogada a Portaria n.º 125/88/M, de 1 de Agosto',
      noCode(
        'revokes an earlier 13 Cards regulation the project does not hold; no earlier rule set to switch from',
      ),
    ),
    t(
      at(P51, 1, undefined, 1),
      'Um baralho de 52 cartas',
      th('deal.ts', ['PLACES', 'CARDS_PER_PLACE'], [TT.checks, TT.rules], ['THIRTEEN.DEAL.COUNT']),
    ),
    t(
      at(P51, 1, undefined, 2),
      'Uma caixa metálica para as cartas e uma carta branca',
      noCode('equipment; how the blank card is used to cut is art. 2.º a)'),
    ),
    t(
      at(P51, 1, undefined, 3),
      'Quatro dados e uma campânula para agitar os dados',
      noCode('equipment; how the dice pick the first place is art. 2.º b)'),
    ),
    t(
      at(P51, 1, undefined, 4),
      'Aparelho de baralhar cartas',
      noCode('equipment; when it must be used is art. 2.º a) and 4.º'),
    ),
    t(
      at(P51, 2, undefined, 1),
      'As cartas, que podem ser utilizadas em uma ou mais jogadas, são baralhadas, primeiramente, à mão pelo «dealer» …',
      th(
        'checks/art-02-04-deal.ts',
        ['checkCut'],
        [TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.CUT.TOO_FEW_CARDS'],
      ),
    ),
    t(
      at(P51, 2, undefined, 2),
      'Cabe ao jogador, ocupando lugar na mesa, que tenha efectuado aposta mais elevada, o direito de agitar os quatro dados …',
      implemented(
        [
          code(TH + 'deal.ts', 'firstPlace', 'placeOfCard'),
          code(TH + 'checks/art-02-04-deal.ts', 'checkStartPlace', 'checkDealCount', 'checkDealOrder'),
        ],
        [TT.rules, TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.DEAL.START_PLACE', 'THIRTEEN.DEAL.COUNT', 'THIRTEEN.DEAL.ORDER'],
      ),
    ),
    t(
      at(P51, 2, undefined, 3),
      'Não é permitido a qualquer jogador adicionar pontos à soma revelada pelos dados …',
      implemented(
        [
          code(TH + 'checks/art-02-04-deal.ts', 'checkStartPlace', 'checkDealCount'),
          code(TH + 'checks/art-02-bets.ts', 'checkBetAfterDice', 'checkBetTransferred'),
          code(TH + 'settle.ts', 'settleThirteenRound'),
        ],
        [TT.checks, TT.detection, TT.replay],
        [
          'THIRTEEN.DEAL.START_PLACE',
          'THIRTEEN.DEAL.COUNT',
          'THIRTEEN.BET.AFTER_DICE',
          'THIRTEEN.BET.TRANSFERRED',
        ],
      ),
    ),
    t(
      at(P51, 2, undefined, 4),
      'Não é permitido ao jogador pegar nas cartas ou vê-las antes do banqueiro ter acabado de formar o seu jogo …',
      implemented(
        [
          code(TH + 'checks/art-02-07-arrange.ts', 'checkPlayerBeforeBanker', 'checkTimeExceeded'),
          code(TH + 'settle.ts', 'arrangeDeadline'),
          code(TH + 'score.ts', 'scorePlace'),
        ],
        [TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.ARRANGE.PLAYER_BEFORE_BANKER', 'THIRTEEN.ARRANGE.TIME_EXCEEDED_NOT_PENALISED'],
      ),
    ),
    t(
      at(P51, 3),
      'Haverá em cada mesa quatro lugares, incluindo o do «dealer» banqueiro …',
      th(
        'checks/art-03-05-conduct.ts',
        ['checkPlaceChanged', 'checkCardsOffTable'],
        [TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.CONDUCT.PLACE_CHANGED', 'THIRTEEN.CONDUCT.CARDS_OFF_TABLE'],
      ),
    ),
    t(
      at(P51, 4),
      'Se, durante a distribuição, aparecerem cartas com a face voltada para cima, tais cartas serão consideradas válidas …',
      implemented(
        [code(TH + 'checks/art-02-04-deal.ts', 'checkMisdeal'), code(TH + 'round.ts', 'cardsByPlace')],
        [TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.DEAL.MISDEAL_MISHANDLED'],
      ),
    ),
    t(
      at(P51, 5),
      'Quando dois ou mais jogadores apostarem no mesmo lugar, o direito de segurar as cartas pertence àquele que tiver efectuado aposta mais elevada …',
      th(
        'checks/art-03-05-conduct.ts',
        ['checkHolder'],
        [TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.CONDUCT.WRONG_HOLDER'],
      ),
    ),
    t(
      at(P51, 6),
      'O valor das cartas é graduado pela seguinte ordem decrescente: Ás, Rei, Dama, Valete, 10, …',
    ),
    t(
      at(P51, 7),
      'As 13 cartas de cada lugar são arrumadas em três escalões …',
      implemented(
        [
          code(TH + 'arrangement.ts', 'judgeArrangement', 'arrangementProblems'),
          code(TH + 'checks/art-02-07-arrange.ts', 'checkFoulPenalised'),
          code(TH + 'solver.ts', 'bestArrangementAgainst', 'arrangeAlone'),
        ],
        [TT.rules, TT.checks, TT.solver, TT.detection, TT.replay],
        ['THIRTEEN.ARRANGE.FOUL_NOT_PENALISED'],
      ),
    ),
    t(
      at(P51, 8),
      'Os três escalões do jogador são apostados contra os respectivos escalões do banqueiro …',
      th('score.ts', ['scorePlace'], [TT.rules, TT.checks, TT.solver], ['THIRTEEN.PAYOUT.MISMATCH']),
    ),
    t(at(P51, 9), 'Todo o jogo de graduação superior bate qualquer outro de graduação inferior …'),
    t(
      at(P51, 9, 1),
      'I — Jogo feito ou natural: Dragão … Seis pares e meio … Três cores … Três sequências …',
      th(
        'arrangement.ts',
        ['cardsNatural', 'arrangedNatural'],
        [TT.rules, TT.solver],
        ['THIRTEEN.PAYOUT.MISMATCH'],
      ),
      'art. 9.º I',
    ),
    t(at(P51, 9, 2), 'II — Outras variantes de jogos', T13, 'art. 9.º II'),
    formation(1, 'Naipe Real (Royal Flush): jogo com as cinco maiores cartas …'),
    formation(
      2,
      'Sequência de Naipe («Straight Flush»): quaisquer cinco cartas de um mesmo naipe, em sequência numérica …',
    ),
    formation(3, 'Quatro cartas iguais («Four of a Kind»): quaisquer quatro cartas de igual denominação …'),
    formation(4, 'Trio-Par («Full House»): três cartas de uma denominação e duas de outra …'),
    formation(
      5,
      'Naipe ou Cor («Flush»): quaisquer cinco cartas de um mesmo naipe, sem estarem em sequência numérica …',
    ),
    formation(6, 'Sequência («Straight»): cinco cartas em sequência, sem serem de um mesmo naipe …'),
    formation(7, 'Três cartas iguais ou Trio («Three of a Kind») …'),
    formation(8, 'Dois pares: dois pares diferentes de cartas e uma carta desigual …'),
    formation(9, 'Par: duas cartas de igual denominação e três outras indiferentes ou desiguais …'),
    formation(10, 'Maior carta («High Card»): formação com cinco cartas desiguais …'),
    t(
      at(P51, 10),
      'A formação do banqueiro ganha se todas as cartas do banqueiro e de jogador num mesmo escalão forem de igual gradação …',
      th('score.ts', ['scorePlace'], [TT.rules, TT.checks], ['THIRTEEN.PAYOUT.MISMATCH']),
    ),
    t(
      at(P51, 11),
      'O jogador poderá apostar em termos de 1, 2 ou 3 pontos. Ao jogador que ganhar serão pagos prémios equivalentes a metade …',
      th(
        'score.ts',
        ['settleBet'],
        [TT.rules, TT.checks, TT.detection, TT.replay],
        ['THIRTEEN.PAYOUT.MISMATCH'],
      ),
    ),
  ],
});

const MJ_TILES = mjImpl(
  'tiles.ts',
  ['TILE_KINDS', 'fullTileSet', 'tileSetProblems'],
  ['MAHJONG.DEAL.TILE_SET'],
);
const mj = (c: Citation, heading: string | null, firstWords: string, status: Status = MJ_TILES): TraceRow =>
  provision(c, heading, firstWords, status, {
    ownText: 'portaria',
    // the text numbers the groups of tiles (1)…(5)
    ...(c.alinea === undefined ? {} : { label: `art. 1.º n.º 2 (${c.alinea})` }),
  });

export const PORTARIA_52_89_M: DiplomaTrace = Object.freeze({
  id: P52,
  title: 'Portaria n.º 52/89/M — Regulamento Oficial do Jogo de Mah-Jong (art. 1.º–2.º only)',
  source: 'thirteen-cards-and-mahjong-portarias-51-52-89-M.pt.txt',
  ruleSets: ['mahjong-1989-deal'],
  notes: [
    'The text held stops after art. 2.º of the regulation: the rest (outcomes, payments) is not known, and the regulation may have been replaced by Portaria 135/91/M (unverified). Only the deal can be audited: outcomes and payouts are out of scope.',
    'The deal is checked on round facts (packages/rules/src/mahjong), fed by ta.mahjong.* events through the replay (the shared round fold); every Mah-Jong round and finding the API serves carries the scope note, and the UI shows it.',
    'No entry-into-force article: the registry dates it from its publication, 1989-03-20.',
  ],
  rows: [
    mj(
      at(P52, 0, 1),
      null,
      'É aprovado o Regulamento Oficial do Jogo de Mah-Jong, em anexo',
      noCode('approves the annexed rules; each of their provisions has its own row'),
    ),
    mj(
      at(P52, 0, 2),
      null,
      'É revogada a Portaria n.º 133/88/M, de 22 de Agosto',
      noCode(
        'revokes an earlier Mah-Jong regulation the project does not hold; no earlier rule set to switch from',
      ),
    ),
    mj(
      at(P52, 1, 1),
      'Material',
      'O material do jogo de Mah-Jong compõe-se de 136 cartas ou pedras, uma chapa … 3 dados e uma mesa',
    ),
    mj(
      at(P52, 1, 2),
      'Grupos de pedras',
      'Cada baralho completo de pedras inclui 5 grupos distintos, a saber:',
    ),
    mj(
      at(P52, 1, 2, 1),
      'Grupos de pedras',
      '3 variedades de pedras «trunfos» (encarnada, verde, branca), cada uma com 4 peças iguais',
    ),
    mj(
      at(P52, 1, 2, 2),
      'Grupos de pedras',
      '4 variedades de pedras «ventos» (Este, Sul, Oeste, Norte), cada uma com 4 peças iguais',
    ),
    mj(
      at(P52, 1, 2, 3),
      'Grupos de pedras',
      '9 variedades de pedras chamadas «bambus», numeradas de 1 a 9 …',
    ),
    mj(
      at(P52, 1, 2, 4),
      'Grupos de pedras',
      '9 variedades de pedras chamadas «números», numeradas de 1 a 9 …',
    ),
    mj(
      at(P52, 1, 2, 5),
      'Grupos de pedras',
      '9 variedades de pedras chamadas «círculos», numeradas de 1 a 9 …',
    ),
    mj(
      at(P52, 2),
      'Procedimentos quanto ao jogo',
      'O Mah-Jong joga-se com quatro jogadores ou parceiros … as pedras são arrumadas … o banqueiro lança os dados …',
      mjImpl(
        'deal.ts',
        ['breakStack', 'DRAW_TURNS', 'HAND'],
        ['MAHJONG.DEAL.BREAK_POSITION', 'MAHJONG.DEAL.COUNTS', 'MAHJONG.DEAL.ORDER'],
      ),
    ),
  ],
});
