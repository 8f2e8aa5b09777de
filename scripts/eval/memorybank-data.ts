/**
 * Reads MemoryBank's simulated chats (zhongwanjun/MemoryBank-SiliconFriend `eval_data/`: `memory_bank_{cn,en}.json`,
 * `probing_questions_{cn,en}.jsonl`, in ../shared/eval) as conversations of the LoCoMo eval, so the same replay and
 * measures run on them. These chats are the app's own shape: a user and an assistant, ten days of a few exchanges
 * each, and later questions about them ("what film did I recommend to you?", 你给我推荐过哪些画家？).
 *
 * The files give no evidence, so ours are labelled by hand (`scripts/eval/data/memorybank/<lang>-*.json`: per user,
 * named `user <n>` by their place in the data file, and per probing question, the turns that hold the answer, as ids
 * only: no text of the dataset). A turn id is `<date>#<exchange>u` for the user's message and `…a` for the
 * assistant's reply, the exchange counted from 0 within its day. Questions labelled unanswerable are skipped
 * (counted). Category: 1 (multi-hop) when the answer takes more than one turn, else 4.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LocomoConversation, LocomoQuestion, LocomoSession, LocomoTurn } from './locomo-data.ts';

export interface EvidenceLabel {
  readonly q: number;
  readonly evidence: readonly string[];
  readonly answerable: boolean;
}

/** Per user (`user <n>`: the n-th of the data file, from 1), the probing questions' evidence. */
export type EvidenceLabels = Readonly<Record<string, readonly EvidenceLabel[]>>;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Names carry stray spaces in one file and not the other. */
const key = (name: string): string => name.replace(/\s+/g, '');

/** A day's session starts at noon UTC (the replay puts its turns a minute apart): the order is what matters, and the day. */
const dayTime = (date: string): number => Date.parse(`${date}T12:00:00Z`);

export function parseMemoryBank(bank: unknown, probes: string, labels: EvidenceLabels, lang: string): LocomoConversation[] {
  if (!isObject(bank)) throw new Error('A MemoryBank file is a JSON object of users.');
  const questionsOf = new Map<string, string[]>();
  for (const line of probes.split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as unknown;
    if (!isObject(row)) throw new Error('A probing line is a JSON object: { "<user>": [questions] }.');
    for (const [name, qs] of Object.entries(row)) if (Array.isArray(qs)) questionsOf.set(key(name), qs.map(String));
  }
  return Object.entries(bank).map(([name, raw], n) => {
    const history = isObject(raw) && isObject(raw['history']) ? raw['history'] : {};
    const sessions: LocomoSession[] = Object.entries(history)
      .filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, exchanges], index) => {
        const turns: LocomoTurn[] = exchanges.filter(isObject).flatMap((x, i) => [
          { diaId: `${date}#${i}u`, speaker: 'user', text: String(x['query'] ?? '') },
          { diaId: `${date}#${i}a`, speaker: 'assistant', text: String(x['response'] ?? '') },
        ]);
        return { index: index + 1, time: dayTime(date), turns };
      });
    const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
    const asked = questionsOf.get(key(name)) ?? [];
    const labelled = labels[`user ${n + 1}`] ?? [];
    let skipped = 0;
    const questions: LocomoQuestion[] = [];
    asked.forEach((question, q) => {
      const label = labelled.find((l) => l.q === q);
      const evidence = (label?.evidence ?? []).filter((id) => known.has(id));
      if (label === undefined || !label.answerable || evidence.length === 0) {
        skipped += 1;
        return;
      }
      questions.push({ question, answer: '', category: evidence.length > 1 ? 1 : 4, evidence: [...new Set(evidence)] });
    });
    return { id: `memorybank-${lang}-${n + 1}`, speakerA: 'user', speakerB: 'assistant', sessions, questions, skipped };
  });
}

/** The shared files for `lang` (cn or en) in `dir`, and every label file `<lang>-*.json` in `labelDir`, merged. */
export async function readMemoryBank(dir: string, lang: string, labelDir: string): Promise<LocomoConversation[]> {
  const bank = JSON.parse(await readFile(join(dir, `memory_bank_${lang}.json`), 'utf8')) as unknown;
  const probes = await readFile(join(dir, `probing_questions_${lang}.jsonl`), 'utf8');
  const labels: Record<string, readonly EvidenceLabel[]> = {};
  for (const file of (await readdir(labelDir)).filter((f) => f.startsWith(`${lang}-`) && f.endsWith('.json')).sort()) {
    Object.assign(labels, JSON.parse(await readFile(join(labelDir, file), 'utf8')) as EvidenceLabels);
  }
  return parseMemoryBank(bank, probes, labels, lang);
}
