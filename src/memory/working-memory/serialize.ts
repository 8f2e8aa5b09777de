/** Working memory to and from JSON, for the store. Reading checks every field: stored data may be old or damaged. */
import { AssistantError } from '../../shared/errors.ts';
import { ENTITY_TYPES } from './types.ts';
import type { FactChange, WmItem, WorkingMemoryState } from './state.ts';

export function serializeWorkingMemory(state: WorkingMemoryState): string {
  return JSON.stringify(state);
}

function bad(path: string, what: string): never {
  throw new AssistantError('invalid_input', `Stored working memory is invalid: ${path} ${what}.`);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function str(o: Json, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string') bad(`${path}.${key}`, 'must be a string');
  return v;
}

function num(o: Json, key: string, path: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(`${path}.${key}`, 'must be a finite number');
  return v;
}

function op(o: Json, path: string): 'set' | 'unset' {
  const v = o['op'];
  if (v !== 'set' && v !== 'unset') bad(`${path}.op`, 'must be "set" or "unset"');
  return v;
}

function change(v: unknown, path: string): FactChange {
  if (!isObject(v)) bad(path, 'must be an object');
  return {
    value: str(v, 'value', path),
    op: op(v, path),
    turnId: str(v, 'turnId', path),
    at: num(v, 'at', path),
    offsetMinutes: num(v, 'offsetMinutes', path),
  };
}

function item(v: unknown, path: string): WmItem {
  if (!isObject(v)) bad(path, 'must be an object');
  if (typeof v['pinned'] !== 'boolean') bad(`${path}.pinned`, 'must be a boolean');
  const base = {
    id: str(v, 'id', path),
    turnId: str(v, 'turnId', path),
    at: num(v, 'at', path),
    offsetMinutes: num(v, 'offsetMinutes', path),
    firstAt: num(v, 'firstAt', path),
    expiresAt: num(v, 'expiresAt', path),
    pinned: v['pinned'],
  };
  const type = v['type'];
  if (type === 'fact') {
    const history = v['history'];
    if (!Array.isArray(history)) bad(`${path}.history`, 'must be a list');
    return {
      ...base,
      type,
      subject: str(v, 'subject', path),
      value: str(v, 'value', path),
      op: op(v, path),
      history: history.map((h, i) => change(h, `${path}.history[${i}]`)),
    };
  }
  if (type === 'deprecation') {
    const keys = v['keys'];
    if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string'))
      bad(`${path}.keys`, 'must be a list of strings');
    return { ...base, type, value: str(v, 'value', path), keys: keys as string[] };
  }
  if (typeof type === 'string' && (ENTITY_TYPES as readonly string[]).includes(type)) {
    return { ...base, type: type as (typeof ENTITY_TYPES)[number], value: str(v, 'value', path) };
  }
  return bad(`${path}.type`, `is unknown (${JSON.stringify(type)})`);
}

/** Reads a state from its JSON text or already-parsed data; throws `invalid_input` naming the first bad field. */
export function parseWorkingMemory(input: string | unknown): WorkingMemoryState {
  let data: unknown = input;
  if (typeof input === 'string') {
    try {
      data = JSON.parse(input);
    } catch (error) {
      throw new AssistantError('invalid_input', `Stored working memory is not JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  if (!isObject(data)) bad('state', 'must be an object');
  if (data['version'] !== 1) bad('version', `must be 1, got ${JSON.stringify(data['version'])}`);
  const items = data['items'];
  if (!Array.isArray(items)) bad('items', 'must be a list');
  return { version: 1, items: items.map((v, i) => item(v, `items[${i}]`)) };
}
