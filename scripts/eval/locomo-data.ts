/**
 * Reads a file in LoCoMo's format (snap-research/LoCoMo `data/locomo10.json`) into plain conversations:
 * sessions in order with their dates, turns with their dia_id, questions with their evidence turns.
 * Evidence strings are split on `;`, `,` and spaces; ids that name no turn are dropped; a question left with
 * none is skipped (counted). A turn's image caption (`blip_caption`) is part of its text.
 */
import { readFile } from 'node:fs/promises';

export interface LocomoTurn {
  readonly diaId: string;
  readonly speaker: string;
  readonly text: string;
}

export interface LocomoSession {
  readonly index: number;
  /** Epoch ms of the session's date and time (read as UTC). */
  readonly time: number;
  readonly turns: readonly LocomoTurn[];
}

export interface LocomoQuestion {
  readonly question: string;
  /** The gold answer as text ('' for questions without one, as adversarial ones are). */
  readonly answer: string;
  readonly category: number;
  readonly evidence: readonly string[];
}

export interface LocomoConversation {
  readonly id: string;
  readonly speakerA: string;
  readonly speakerB: string;
  readonly sessions: readonly LocomoSession[];
  readonly questions: readonly LocomoQuestion[];
  /** Questions skipped for having no evidence turn that resolves. */
  readonly skipped: number;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → epoch ms (UTC). Falls back to Date.parse; throws on anything else. */
export function parseLocomoDate(text: string): number {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text);
  if (m !== null) {
    const month = MONTHS.findIndex((name) => name.startsWith(m[5]!.toLowerCase().slice(0, 3)));
    let hour = Number(m[1]) % 12;
    if (m[3]!.toLowerCase() === 'pm') hour += 12;
    if (month >= 0) return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
  }
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) throw new Error(`Unreadable session date: ${JSON.stringify(text)}`);
  return parsed;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseLocomo(data: unknown): LocomoConversation[] {
  if (!Array.isArray(data)) throw new Error('A LoCoMo file is a JSON list of conversations.');
  return data.map((raw, n) => {
    if (!isObject(raw) || !isObject(raw['conversation'])) throw new Error(`Conversation ${n} has no "conversation" object.`);
    const conv = raw['conversation'];
    const sessions: LocomoSession[] = [];
    for (const [key, value] of Object.entries(conv)) {
      const m = /^session_(\d+)$/.exec(key);
      if (m === null || !Array.isArray(value)) continue;
      const index = Number(m[1]);
      const date = conv[`session_${index}_date_time`];
      const turns = value.filter(isObject).map((t) => {
        const caption = typeof t['blip_caption'] === 'string' && t['blip_caption'] !== '' ? ` [shared image: ${t['blip_caption']}]` : '';
        return { diaId: String(t['dia_id']), speaker: String(t['speaker']), text: `${String(t['text'] ?? '')}${caption}` };
      });
      if (turns.length === 0) continue;
      sessions.push({ index, time: typeof date === 'string' ? parseLocomoDate(date) : 0, turns });
    }
    sessions.sort((a, b) => a.index - b.index);
    const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)));
    let skipped = 0;
    const questions: LocomoQuestion[] = [];
    for (const q of Array.isArray(raw['qa']) ? raw['qa'] : []) {
      if (!isObject(q) || typeof q['question'] !== 'string') continue;
      const evidence = (Array.isArray(q['evidence']) ? q['evidence'] : [])
        .flatMap((e: unknown) => String(e).split(/[;,\s]+/))
        .filter((id) => known.has(id));
      if (evidence.length === 0) {
        skipped += 1;
        continue;
      }
      const answer = typeof q['answer'] === 'string' || typeof q['answer'] === 'number' ? String(q['answer']) : '';
      questions.push({ question: q['question'], answer, category: Number(q['category']), evidence: [...new Set(evidence)] });
    }
    return {
      id: String(raw['sample_id'] ?? `conv-${n}`),
      speakerA: String(conv['speaker_a'] ?? 'A'),
      speakerB: String(conv['speaker_b'] ?? 'B'),
      sessions,
      questions,
      skipped,
    };
  });
}

export async function readLocomo(path: string): Promise<LocomoConversation[]> {
  return parseLocomo(JSON.parse(await readFile(path, 'utf8')) as unknown);
}
