/**
 * KdConv-format dialogues (thu-coai/KdConv: Chinese knowledge-grounded conversations) as a docs-retrieval eval.
 * A file is a list of dialogues `{messages: [{message, attrs?: [{name, attrname, attrvalue}]}]}`; a message's
 * `attrs` are the knowledge triples it uses. Every distinct triple becomes one doc chunk (what a docs site's
 * section about one fact would be); the messages alternate between the user (even) and the assistant (odd), and
 * an assistant message that uses knowledge is scored: did the prompt built for the user message before it carry
 * that knowledge as docs? Data is read from the path given, never from the repository.
 */
import { readFile } from 'node:fs/promises';
import type { DocEntry } from '../../src/memory/retrieval/records.ts';

export interface Knowledge {
  /** The doc chunk that holds it. */
  readonly docId: string;
  readonly name: string;
  readonly attr: string;
  readonly value: string;
}

export interface KdMessage {
  readonly text: string;
  readonly knowledge: readonly Knowledge[];
}

export interface KdDialogue {
  readonly index: number;
  readonly messages: readonly KdMessage[];
}

export interface KdCorpus {
  readonly dialogues: readonly KdDialogue[];
  /** One doc per distinct triple, in first-use order. */
  readonly docs: readonly DocEntry[];
}

function fail(where: string, what: string): never {
  throw new Error(`Not a KdConv-format file: ${where} ${what}`);
}

/** Validates and converts parsed JSON; throws a clear error naming the first thing that is wrong. */
export function parseKdConv(data: unknown): KdCorpus {
  if (!Array.isArray(data)) fail('the top level', 'must be a list of dialogues');
  const docs: DocEntry[] = [];
  const byTriple = new Map<string, Knowledge>();
  const parts = new Map<string, number>();
  const dialogues = data.map((raw, index): KdDialogue => {
    const messages = (raw as { messages?: unknown })?.messages;
    if (!Array.isArray(messages)) fail(`dialogue ${index}`, 'has no "messages" list');
    return {
      index,
      messages: messages.map((m, i): KdMessage => {
        const where = `dialogue ${index}, message ${i}`;
        const { message, attrs } = (m ?? {}) as { message?: unknown; attrs?: unknown };
        if (typeof message !== 'string') fail(where, 'has no "message" text');
        if (attrs !== undefined && !Array.isArray(attrs)) fail(where, 'has "attrs" that is not a list');
        const knowledge = (attrs ?? []).map((a: unknown): Knowledge => {
          const { name, attrname, attrvalue } = (a ?? {}) as Record<string, unknown>;
          if (typeof name !== 'string' || typeof attrname !== 'string' || typeof attrvalue !== 'string') fail(where, 'has an attr without name, attrname and attrvalue');
          const key = `${name}\u0000${attrname}\u0000${attrvalue}`;
          let k = byTriple.get(key);
          if (k === undefined) {
            const part = parts.get(name) ?? 0;
            parts.set(name, part + 1);
            k = { docId: `kd/${byTriple.size}`, name, attr: attrname, value: attrvalue };
            byTriple.set(key, k);
            docs.push({ id: k.docId, docId: name, source: `${name} · ${attrname}`, part, text: `${name}（${attrname}）：${attrvalue}` });
          }
          return k;
        });
        return { text: message, knowledge };
      }),
    };
  });
  return { dialogues, docs };
}

export async function readKdConv(path: string): Promise<KdCorpus> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseKdConv(data);
}
