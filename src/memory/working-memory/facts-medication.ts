/**
 * A medicine the user takes (`medication`): 每天睡前吃一片阿托伐他汀, 我每天晚上吃降压药, 血压药现在吃的是氨氯地平, "I take
 * metformin twice a day", "the doctor put me on atorvastatin 20mg". Something taken is a medicine only when the
 * message says so: a dose (一片 with a medical word in the message, 20mg), a name of a medicine's kind (降压药, 胶囊), a
 * habit (每天, every morning) with one of those, or a doctor. 每天吃两颗鸡蛋 (a food the vocabulary lists) and "I take
 * the bus every day" set nothing.
 */
import { alternation, escapeRegExp } from './text.ts';
import type { MedicationVocabulary } from './vocab-personal.ts';

export interface MedicationMatchers {
  /** Group 1: when (optional); 2: the verb; 3: the dose's measure (optional); 4: the medicine. */
  readonly zh: RegExp;
  readonly zhKind: RegExp;
  /** Group 1: the lead; 2: the medicine. */
  readonly en: RegExp;
  /** Right after the English medicine: its dose (20mg, 5 mg). */
  readonly dose: RegExp;
  readonly enWhen: RegExp;
  readonly notMedicines: ReadonlySet<string>;
  readonly zhNotMedicines: ReadonlySet<string>;
}

/** Words that make a Chinese message medical: a medicine, a doctor, a condition it treats. */
const MEDICAL_ZH = /药|医生|大夫|处方|医嘱|血压|血糖|血脂|甲状腺|胆固醇|复查|抽血|过敏|病|症|炎/;
const MEDICAL_EN = /\b(?:doctor|doc|gp|prescri\w*|pharmacy|refill|blood pressure|cholesterol|thyroid|diabet\w*)\b/i;
/** Just before the Chinese verb: the user stopped it (不吃, 别再吃, 停了). */
const STOPPED_BEFORE = /[不没别停]\s*再?\s*$/;
/** Leads that need a dose or a doctor as well: "I'm on" is said of many things. */
const WEAK_LEAD = /^(?:i'm on|i am on)$/i;
/** After the English medicine, words that say it goes on as another noun ("take Spanish classes"): none is it. */
const CONTINUES = /^\s+(?!(?:and|at|in|on|every|each|once|twice|three|daily|with|before|after|for|since|now|a|as|but|so|because|from|to|until)\b)[a-z]/i;

export function compileMedicationMatchers(v: MedicationVocabulary): MedicationMatchers {
  const count = '(?:一|两|二|半|三|[1-9])';
  return {
    zh: new RegExp(
      `(?:(${alternation(v.zhWhen)})[^，。,.;；!！?？]{0,12}?)?(${alternation(v.zhTake)})\\s*(?:${count}\\s*(${alternation(v.zhMeasures)}))?\\s*` +
        `((?![的是了药])(?!${count}\\s*(?:${alternation(v.zhMeasures)}))[\\u4e00-\\u9fff]{2,6}?|[A-Za-z][A-Za-z-]{2,})(?=$|[\\s，。,.;；!！?？、(（]|的|了|吧|再|先|来)`,
      // (d: where the verb stands, to see a negation before it.)
      'gd',
    ),
    zhKind: new RegExp(`(?:${alternation(v.zhKinds)})$`),
    en: new RegExp(`\\b(${alternation(v.enLeads)})\\s+([A-Za-z][A-Za-z-]{3,})\\b`, 'gi'),
    // (Units straight after the number, 20mg: no word boundary before them.)
    dose: new RegExp(`^\\s+\\d+(?:\\.\\d+)?\\s*(?:${[...v.doseUnits].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})(?![A-Za-z])`, 'i'),
    enWhen: new RegExp(alternation(v.enWhen), 'i'),
    notMedicines: new Set(v.notMedicines.map((w) => w.toLowerCase())),
    zhNotMedicines: new Set(v.zhNotMedicines),
  };
}

/** Whether a message speaks of medicine (in Chinese, in English): read once a message, not once a clause. */
export interface MedicalContext {
  readonly zh: boolean;
  readonly en: boolean;
}

export function medicalContext(message: string): MedicalContext {
  return { zh: MEDICAL_ZH.test(message), en: MEDICAL_EN.test(message) };
}

/** The medicine `text` says the user takes, with its offset; null when it names none. */
export function findMedication(
  text: string,
  m: MedicationMatchers,
  productAt: (pos: number) => boolean,
  /** Whether the whole message speaks of medicine: the words that say so may stand in another clause. */
  medical: MedicalContext = medicalContext(text),
): { value: string; at: number } | null {
  const medicalZh = medical.zh;
  for (const x of text.matchAll(m.zh)) {
    const [, when, verb, measure, medicine] = x;
    const at = x.index + x[0].length - medicine!.length;
    // 我不吃褪黑素了, 别再吃…: one the user stopped is no medicine taken.
    const verbAt = x.indices![2]![0];
    if (productAt(at) || m.zhNotMedicines.has(medicine!) || STOPPED_BEFORE.test(text.slice(Math.max(0, verbAt - 3), verbAt))) continue;
    const kind = m.zhKind.test(medicine!);
    // 每天早上吃一片氨氯地平 (with 血压 or 医生 near), 每晚吃降压药, 现在吃的是氨氯地平 (in a message about a medicine).
    const habitual = when !== undefined && ((measure !== undefined && medicalZh) || kind);
    const said = verb !== '吃' && verb !== '服' && medicalZh;
    if (habitual || said || (kind && medicalZh)) return { value: medicine!, at };
  }
  for (const x of text.matchAll(m.en)) {
    const [, lead, medicine] = x;
    if (m.notMedicines.has(medicine!.toLowerCase())) continue;
    const at = x.index + x[0].indexOf(medicine!, lead!.length);
    if (productAt(at)) continue;
    let end = x.index + x[0].length;
    // A letter or a number that belongs to the name (vitamin D, B12), in capitals: not the start of "twice".
    const letter = /^\s+(?:[A-Z]\d*|B\d+)(?![\w])/.exec(text.slice(end))?.[0];
    end += letter?.length ?? 0;
    const dose = m.dose.exec(text.slice(end))?.[0];
    end += dose?.length ?? 0;
    if (dose === undefined && CONTINUES.test(text.slice(end))) continue;
    const often = m.enWhen.test(text.slice(end, end + 40));
    if (dose === undefined && !medical.en && (WEAK_LEAD.test(lead!) || !often)) continue;
    return { value: `${medicine}${letter ?? ''}${dose ?? ''}`.trim(), at };
  }
  return null;
}
