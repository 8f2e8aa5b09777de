/**
 * Section budgets (seed 001 §2.1): system, working memory, retrieved memory, current input (the message and
 * the recent turns of its session), and the reserve for the answer; they add up to the model's window.
 *
 * Seed 001 splits 9,600 tokens 400 / 1,200 / 3,000 / 2,000 / 3,000. A 0.5B model with a 1,024–4,096 window
 * cannot give a third to the reserve and a fifth to the input and still recall anything, so the anchors below
 * keep the seed's order of importance but give retrieval about half (≈ 500 tokens at 1,024, as the reference
 * measurements assume) and the answer a quarter at 1,024, less at 4,096 where a quarter would be 1,000 tokens
 * of answer a small model never writes. Windows between anchors interpolate on a log scale.
 */
import { AssistantError } from '../../shared/errors.ts';

export interface SectionBudgets {
  /** The model's whole window: the sum of the others. */
  readonly window: number;
  readonly system: number;
  readonly working: number;
  readonly retrieval: number;
  /** The current message and the recent turns of its session (the append-only history). */
  readonly input: number;
  /** Kept free for the answer. */
  readonly reserve: number;
}

type Shares = Omit<SectionBudgets, 'window'>;

/** Anchors, in tokens. */
export const BUDGET_ANCHORS: ReadonlyArray<SectionBudgets> = Object.freeze([
  { window: 1024, system: 80, working: 64, retrieval: 480, input: 144, reserve: 256 },
  { window: 2048, system: 96, working: 128, retrieval: 1104, input: 336, reserve: 384 },
  { window: 4096, system: 128, working: 256, retrieval: 2432, input: 640, reserve: 640 },
]);

const KEYS: ReadonlyArray<keyof Shares> = ['system', 'working', 'retrieval', 'input', 'reserve'];

function shares(anchor: SectionBudgets): Shares {
  const out = {} as Record<keyof Shares, number>;
  for (const k of KEYS) out[k] = anchor[k] / anchor.window;
  return out;
}

/** Default budgets for a window (tokens). Throws `invalid_config` below 256 tokens. */
export function sectionBudgets(window: number): SectionBudgets {
  if (!Number.isInteger(window) || window < 256) {
    throw new AssistantError('invalid_config', `The window must be an integer of at least 256 tokens (got ${window}).`);
  }
  const anchors = BUDGET_ANCHORS;
  const exact = anchors.find((a) => a.window === window);
  if (exact !== undefined) return exact;
  let s: Shares;
  if (window <= anchors[0]!.window) s = shares(anchors[0]!);
  else if (window >= anchors[anchors.length - 1]!.window) s = shares(anchors[anchors.length - 1]!);
  else {
    const hi = anchors.findIndex((a) => a.window > window);
    const a = anchors[hi - 1]!;
    const b = anchors[hi]!;
    const t = Math.log2(window / a.window) / Math.log2(b.window / a.window);
    const sa = shares(a);
    const sb = shares(b);
    s = {} as Shares;
    for (const k of KEYS) (s as Record<keyof Shares, number>)[k] = sa[k] + t * (sb[k] - sa[k]);
  }
  const out = { window } as Record<keyof SectionBudgets, number>;
  let used = 0;
  for (const k of KEYS) {
    out[k] = Math.floor(s[k] * window);
    used += out[k];
  }
  // Rounding leftovers go to retrieval.
  out.retrieval += window - used;
  return out as unknown as SectionBudgets;
}

/** Checks budgets given by hand: whole, non-negative, adding up to the window. */
export function validateBudgets(b: SectionBudgets): void {
  const sum = b.system + b.working + b.retrieval + b.input + b.reserve;
  for (const k of KEYS) {
    if (!Number.isInteger(b[k]) || b[k] < 0) throw new AssistantError('invalid_config', `Budget ${k} must be a whole number ≥ 0.`);
  }
  if (sum !== b.window) throw new AssistantError('invalid_config', `Section budgets add up to ${sum}, not the window ${b.window}.`);
}
