/**
 * Our own labelled dev set (test/fixtures/wm-dev-own.jsonl: 845 messages written for this project under
 * ../shared/eval/README.md's conventions, fact subjects from the slot vocabulary where one fits), scored through
 * the extractor. The shared wm-dev.jsonl is for measuring only. The floors are today's scores, so a change that
 * loses what the extractor gets right fails here; `npm run extract -- --score test/fixtures/wm-dev-own.jsonl`
 * lists every miss. Its last 520 (own-326…own-845) were written blind, 40 at a time, each batch scored before it
 * was fixed for (see the README).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLabelled } from '../../../scripts/extract.ts';
import { createExtractor } from '../../../src/memory/working-memory/extract.ts';
import { scoreMessages } from '../../../src/memory/working-memory/score.ts';
import type { Fact } from '../../../src/memory/working-memory/types.ts';
import { vocabularySubjects } from '../../../src/memory/working-memory/vocabulary.ts';

const { items, errors } = readLabelled(readFileSync(new URL('../../fixtures/wm-dev-own.jsonl', import.meta.url), 'utf8'));

describe('our own working-memory dev set', () => {
  it('is at least 150 well-formed messages in Chinese, English and both, with every entity type of the conventions', () => {
    expect(errors).toEqual([]);
    expect(items.length).toBeGreaterThanOrEqual(150);
    const langs = new Set(items.map((m) => m.lang));
    expect([...langs].sort()).toEqual(['en', 'mixed', 'zh']);
    const types = new Set(items.flatMap((m) => m.entities.map((e) => e.type)));
    for (const t of ['ipv4', 'ipv6', 'hostport', 'url', 'email', 'date', 'time', 'order_id', 'version', 'path', 'phone', 'amount']) expect(types).toContain(t);
    expect(items.filter((m) => m.facts.length > 0).length).toBeGreaterThanOrEqual(100);
    expect(items.filter((m) => m.deprecate.length > 0).length).toBeGreaterThanOrEqual(25);
  });

  it('scores at least what the extractor scores today: entities, deprecations, and the precision of facts', () => {
    const extractor = createExtractor();
    const report = scoreMessages(items.map((label) => ({ label, got: extractor.extract(label.text, label.now) })));
    expect(report.parts.entities.f1).toBeGreaterThanOrEqual(0.95);
    expect(report.parts.deprecate.precision).toBeGreaterThanOrEqual(0.95);
    expect(report.parts.deprecate.recall).toBeGreaterThanOrEqual(0.9);
    // Two of the few wrong ones are ports named as the text names their service ("admin API port" for "admin port").
    expect(report.parts.facts.precision).toBeGreaterThanOrEqual(0.9);
    // Far from the 0.90: most of the set's facts name slots the vocabulary does not have (see the README).
    expect(report.parts.facts.recall).toBeGreaterThanOrEqual(0.6);
    // On the facts whose subject the vocabulary names (what `npm run extract -- --score` prints last): 0.900 today, with the 520 written blind (the
    // blind batches' misses that this session left alone pull it down as the set grows).
    const known = vocabularySubjects(extractor.vocabulary);
    const only = (facts: readonly Fact[]): Fact[] => facts.filter((f) => known.has(f.subject.toLowerCase()));
    const vocabulary = scoreMessages(items.map((label) => ({ label: { ...label, entities: [], deprecate: [], facts: only(label.facts) }, got: { entities: [], deprecate: [], facts: only(extractor.extract(label.text, label.now).facts) } })));
    // (0.886 since a trip only mentioned sets no destination: four of this set's own labels, written before blind
    // labellers showed that most file none, still expect one.)
    expect(vocabulary.parts.facts.recall).toBeGreaterThanOrEqual(0.88);
    expect(vocabulary.parts.facts.precision).toBeGreaterThanOrEqual(0.9);
  });
});

/**
 * Batches labelled by helpers who saw only the conventions (test/fixtures/wm-blind-helpers.jsonl; README, "A seventh
 * round" to "A thirteenth pass"): other people's labels, so the floors sit below the own set's. Today (2,680
 * messages): F1 0.907, facts P 0.882 / R 0.752, deprecations F1 0.946 (recall stays low: their batches name slots
 * no vocabulary has, and void topics in words of their own).
 */
describe("the helper-labelled batches", () => {
  const helpers = readLabelled(readFileSync(new URL('../../fixtures/wm-blind-helpers.jsonl', import.meta.url), 'utf8'));

  it('are well-formed, and the extractor keeps what it gets right on them', () => {
    expect(helpers.errors).toEqual([]);
    expect(helpers.items.length).toBeGreaterThanOrEqual(2680);
    const extractor = createExtractor();
    const report = scoreMessages(helpers.items.map((label) => ({ label, got: extractor.extract(label.text, label.now) })));
    expect(report.overall.f1).toBeGreaterThanOrEqual(0.9);
    expect(report.parts.facts.precision).toBeGreaterThanOrEqual(0.87);
    expect(report.parts.facts.recall).toBeGreaterThanOrEqual(0.74);
    expect(report.parts.deprecate.f1).toBeGreaterThanOrEqual(0.94);
  });
});

/**
 * A second round of helper batches (test/fixtures/wm-blind-helpers-2.jsonl, ids b1-…b4-, 240 messages; README,
 * "An eighth round"): helpers told to name each fact's subject as a careful annotator would, over personal life as
 * much as software. Scored before any rule was written for it. Its labels name 237 different subjects for 309 facts,
 * most of which no vocabulary holds, so facts recall is far below the first round's; these floors are today's scores,
 * to keep what the extractor gets right.
 */
describe('the second round of helper-labelled batches', () => {
  const second = readLabelled(readFileSync(new URL('../../fixtures/wm-blind-helpers-2.jsonl', import.meta.url), 'utf8'));

  it('are well-formed, and the extractor keeps what it gets right on them', () => {
    expect(second.errors).toEqual([]);
    expect(second.items.length).toBe(240);
    const extractor = createExtractor();
    const report = scoreMessages(second.items.map((label) => ({ label, got: extractor.extract(label.text, label.now) })));
    expect(report.parts.entities.f1).toBeGreaterThanOrEqual(0.95);
    expect(report.parts.deprecate.f1).toBeGreaterThanOrEqual(0.85);
    expect(report.parts.facts.precision).toBeGreaterThanOrEqual(0.5);
    expect(report.parts.facts.recall).toBeGreaterThanOrEqual(0.17);
  });
});

/** The floors of one helper-labelled file: its size, its entities F1, and its facts precision and recall. */
interface RoundFloors {
  readonly file: string;
  readonly messages: number;
  readonly entitiesF1: number;
  readonly precision: number;
  readonly recall: number;
}

/** The file is well-formed, has its size, and the extractor keeps its floors on it. */
function keepsItsScores(f: RoundFloors): void {
  const { items, errors } = readLabelled(readFileSync(new URL(`../../fixtures/${f.file}`, import.meta.url), 'utf8'));
  expect(errors).toEqual([]);
  expect(items.length).toBe(f.messages);
  const extractor = createExtractor();
  const report = scoreMessages(items.map((label) => ({ label, got: extractor.extract(label.text, label.now) })));
  expect(report.parts.entities.f1).toBeGreaterThanOrEqual(f.entitiesF1);
  expect(report.parts.facts.precision).toBeGreaterThanOrEqual(f.precision);
  expect(report.parts.facts.recall).toBeGreaterThanOrEqual(f.recall);
}

/**
 * Seven more rounds by helpers blind to the code and fixtures (README, "Five more rounds of helper labels" and
 * "Wrong values, listed by value"), each scored on the rules before any fix it led to:
 * - third (p3- personal life, w3- work; 110 each): session start facts P 0.417 / R 0.040 and P 0.479 / R 0.278; read
 *   for the first pass, so its floors keep what that pass gets right;
 * - fourth (r4a- Chinese-leaning, r4b- English-leaning; 100 each, half personal): held out for the first pass
 *   (P 0.412 / R 0.202 and P 0.568 / R 0.281 against 0.375 / 0.173 and 0.500 / 0.213), then read for the second;
 * - fifth (r5a-, r5b-; 60% work; given only the shared conventions): held out for the first two passes (P 0.525 /
 *   R 0.296 and 0.553 / 0.257 against 0.537 / 0.269 and 0.522 / 0.238), then read for the third;
 * - sixth (r6a-, r6b-; the fifth's brief): held out for all three (P 0.609 / R 0.348 and 0.543 / 0.214 against 0.600 /
 *   0.295 and 0.500 / 0.179), then read for a fourth;
 * - seventh (r7a-, r7b-; the same brief): held out for all four (P 0.547 / R 0.287 and 0.511 / 0.180 against 0.490 /
 *   0.248 and 0.465 / 0.150), then read for a fifth.
 * - eighth (h68- other people's setups, things compared, negations and stories beside the user's own; h69- the shared
 *   set's manner; 40 each): scored on the rules after a pass of precision fixes made from the earlier rounds, which
 *   moved neither (h68 P 0.600 / R 0.556, h69 P 0.933 / R 0.903 before and after it); h68 was then read for a mend.
 * - ninth (h70- the shared set's manner, half of it other people's tools, comparisons, negations, stories and
 *   exceptions; h71- thirds ops, coding and personal life; 40 each): held out from all of this session's passes
 *   (session-start rules P 0.793 / R 0.719 and 0.758 / 0.735; then 0.821 / 0.719 and 0.758 / 0.735), then read for a
 *   last mend (exceptions, 的时候 before an instruction, "has always been").
 * - tenth (h72- thirds ops, coding and personal life; h73- a developer's work and daily life; 40 each): held out from
 *   the first pass of the session that added them ("is our <slot>", what the user is on, an OS things run on), which
 *   moved neither (P 0.514 / R 0.442 and 0.720 / 0.581 before and after it), then read for a second (code comments
 *   beside the answers' language, a Chinese condition after a statement, medication, a contact of someone written to).
 * - eleventh (h74- the shared set's manner, an ops engineer; h75- five kinds of user: a frontend developer, a data
 *   scientist, a student, a shop owner, a parent; 40 each): held out from both passes of that session, which moved
 *   neither (P 0.737 / R 0.778 and 0.556 / 0.444 on the session-start rules and after both), then read for a third.
 * - twelfth (h76- the shared set's manner; h77- a backend and a mobile developer, a shop owner, a graduate student,
 *   a household; 40 each): scored on the session-start rules (P 0.808 / R 0.778 and 0.476 / 0.323), then read for a
 *   pass (a move with its object before off, others' phones, versions said with 统一用, ISP and reference managers,
 *   a role a product also fills said with for).
 * - thirteenth (h78- the shared set's manner, an SRE and a full-stack developer; h79- a data engineer, a game
 *   developer, a designer, a teacher, a couple moving and marrying; 40 each): written blind during that pass, held out
 *   from it (P 0.615 / R 0.533 and 0.462 / 0.188 on the session-start rules, 0.615 / 0.533 and 0.500 / 0.188 after),
 *   then read for a last mend (Traefik named the load balancer).
 * - fourteenth (h80- personal life and software development; h81- operations and data work, and work life; 40 each):
 *   scored on the session-start rules (P 0.545 / R 0.333 and 0.520 / 0.394), then read for a pass (numeric settings,
 *   a version pinned after a switch, "X 的话", 当我没说, contacts of someone named by title, a drop's named slot).
 * - fifteenth (h82- the shared set's manner; h83- a mobile developer, a data scientist, a shop owner, a student, an
 *   SRE; 40 each): written blind during that pass, held out from it (P 0.735 / R 0.641 and 0.615 / 0.235 on the
 *   session-start rules, 0.714 / 0.641 and 0.615 / 0.235 after), then read for a last mend (ML frameworks, a slot
 *   named before "It's going to be…", a version taken back as a major number, a value changed in the next clause).
 * - sixteenth (h84- the shared set's manner; h85- a fintech backend developer, a home-lab owner, a translator, a
 *   parent moving house, a DBA; 40 each): written blind after both passes and scored once on their code, not read
 *   (P 0.656 / R 0.750 and 0.619 / 0.382; 0.645 / 0.714 and 0.600 / 0.353 on the session-start rules), then read for
 *   the next session's pass (a correction sets the right value alone, a replacement takes its drop's slot, 定的是, pin 在,
 *   hypervisors, media servers, translation tools, connection poolers, failures on a platform, "check whether").
 * - seventeenth (h86- ops, coding and personal life; h87- data engineering, mobile, small-business admin, home and
 *   family, personal finance; 40 each): written blind at the start of that pass, scored on its session-start rules
 *   (P 0.607 / R 0.630 and 0.370 / 0.333), held out from that pass (0.607 / 0.630 and 0.407 / 0.367 after it), then
 *   read for a last mend.
 * - eighteenth (h88- the shared set's manner; h89- a security engineer, an embedded developer, a game developer, a
 *   thesis writer, a freelancer, someone planning a wedding and a move; 40 each): written blind near the end of that
 *   pass, scored once on its finished rules and on the session-start ones (the same: P 0.952 / R 0.909, F1 0.980, and
 *   0.667 / 0.293, F1 0.806), not read.
 * - nineteenth (h90- the shared set's manner; h91- an SRE, a data scientist, an iOS developer, a shop owner, a
 *   student, a parent; 40 each): written blind during the last mend, scored once on the finished rules and on the
 *   session-start ones (the same: P 0.806 / R 0.926, F1 0.950, and 0.542 / 0.419, F1 0.863), not read.
 * - twentieth (h92-, h93- both in the shared set's manner; 40 each): written blind after that session's last commit
 *   of rules, scored once on them (P 0.760 / R 0.864, F1 0.929, deprecation P 0.80; 0.867 / 0.897, F1 0.956,
 *   deprecation P 0.86) and on the session-start rules (0.760 / 0.864; 0.839 / 0.897), not read.
 * The floors are the held-out scores where a round was held out, else today's.
 */
const ROUNDS: readonly RoundFloors[] = [
  { file: 'wm-blind-helpers-3-personal.jsonl', messages: 110, entitiesF1: 0.92, precision: 0.6, recall: 0.11 },
  { file: 'wm-blind-helpers-3-work.jsonl', messages: 110, entitiesF1: 0.98, precision: 0.52, recall: 0.34 },
  { file: 'wm-blind-helpers-4-a.jsonl', messages: 100, entitiesF1: 0.98, precision: 0.4, recall: 0.2 },
  { file: 'wm-blind-helpers-4-b.jsonl', messages: 100, entitiesF1: 0.98, precision: 0.55, recall: 0.28 },
  { file: 'wm-blind-helpers-5-a.jsonl', messages: 100, entitiesF1: 0.97, precision: 0.52, recall: 0.29 },
  { file: 'wm-blind-helpers-5-b.jsonl', messages: 100, entitiesF1: 0.97, precision: 0.55, recall: 0.25 },
  { file: 'wm-blind-helpers-6-a.jsonl', messages: 100, entitiesF1: 0.98, precision: 0.6, recall: 0.34 },
  { file: 'wm-blind-helpers-6-b.jsonl', messages: 100, entitiesF1: 0.98, precision: 0.54, recall: 0.21 },
  { file: 'wm-blind-helpers-7-a.jsonl', messages: 100, entitiesF1: 0.98, precision: 0.54, recall: 0.28 },
  { file: 'wm-blind-helpers-7-b.jsonl', messages: 100, entitiesF1: 0.98, precision: 0.51, recall: 0.18 },
  { file: 'wm-blind-helpers-8-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.6, recall: 0.55 },
  { file: 'wm-blind-helpers-8-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.93, recall: 0.9 },
  { file: 'wm-blind-helpers-9-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.82, recall: 0.71 },
  { file: 'wm-blind-helpers-9-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.75, recall: 0.73 },
  { file: 'wm-blind-helpers-10-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.51, recall: 0.44 },
  { file: 'wm-blind-helpers-10-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.72, recall: 0.58 },
  { file: 'wm-blind-helpers-11-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.73, recall: 0.77 },
  { file: 'wm-blind-helpers-11-b.jsonl', messages: 40, entitiesF1: 0.97, precision: 0.55, recall: 0.44 },
  { file: 'wm-blind-helpers-12-a.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.8, recall: 0.77 },
  { file: 'wm-blind-helpers-12-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.47, recall: 0.32 },
  { file: 'wm-blind-helpers-13-a.jsonl', messages: 40, entitiesF1: 0.97, precision: 0.61, recall: 0.53 },
  { file: 'wm-blind-helpers-13-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.46, recall: 0.18 },
  { file: 'wm-blind-helpers-14-a.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.54, recall: 0.33 },
  { file: 'wm-blind-helpers-14-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.52, recall: 0.39 },
  { file: 'wm-blind-helpers-15-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.71, recall: 0.64 },
  { file: 'wm-blind-helpers-15-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.61, recall: 0.23 },
  { file: 'wm-blind-helpers-16-a.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.65, recall: 0.75 },
  { file: 'wm-blind-helpers-16-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.61, recall: 0.38 },
  { file: 'wm-blind-helpers-17-a.jsonl', messages: 40, entitiesF1: 0.95, precision: 0.6, recall: 0.62 },
  { file: 'wm-blind-helpers-17-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.37, recall: 0.33 },
  { file: 'wm-blind-helpers-18-a.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.95, recall: 0.9 },
  { file: 'wm-blind-helpers-18-b.jsonl', messages: 40, entitiesF1: 0.95, precision: 0.66, recall: 0.29 },
  { file: 'wm-blind-helpers-19-a.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.8, recall: 0.92 },
  { file: 'wm-blind-helpers-19-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.54, recall: 0.41 },
  { file: 'wm-blind-helpers-20-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.76, recall: 0.86 },
  { file: 'wm-blind-helpers-20-b.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.86, recall: 0.89 },
  { file: 'wm-blind-helpers-21-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.76, recall: 0.76 },
  { file: 'wm-blind-helpers-21-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.75, recall: 0.63 },
  { file: 'wm-blind-helpers-22-a.jsonl', messages: 40, entitiesF1: 0.99, precision: 0.59, recall: 0.52 },
  { file: 'wm-blind-helpers-22-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.84, recall: 0.57 },
  { file: 'wm-blind-helpers-23-a.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.95, recall: 0.72 },
  { file: 'wm-blind-helpers-23-b.jsonl', messages: 40, entitiesF1: 0.98, precision: 0.77, recall: 0.51 },
];

describe('the third to twentieth rounds of helper-labelled batches', () => {
  for (const round of ROUNDS) it(`${round.file}: well-formed, and the extractor keeps its scores`, () => keepsItsScores(round));
});
