/**
 * All the words and patterns the extractor reads, in one value. Behaviour changes by changing data:
 * pass overrides to `createExtractor` (each section merges key by key; lists replace).
 */
import { AssistantError } from '../../shared/errors.ts';
import { DATE_VOCABULARY, type DateVocabulary } from './vocab-dates.ts';
import { ENTITY_VOCABULARY, type EntityVocabulary } from './vocab-entities.ts';
import { PERSONAL_VOCABULARY, type PersonalVocabulary } from './vocab-personal.ts';
import { PRODUCT_GROUPS, RUNTIME_VERSION_SUBJECTS, type ProductGroup } from './vocab-products.ts';
import { SETTINGS_VOCABULARY, type SettingsVocabulary } from './vocab-settings.ts';
import { SUBJECT_VOCABULARY, type SubjectVocabulary } from './vocab-subjects.ts';
import { TRIGGER_VOCABULARY, type TriggerVocabulary } from './vocab-triggers.ts';

export type { DateVocabulary, EntityVocabulary, PersonalVocabulary, ProductGroup, SettingsVocabulary, SubjectVocabulary, TriggerVocabulary };

export interface WmVocabulary {
  readonly entities: EntityVocabulary;
  readonly dates: DateVocabulary;
  readonly products: readonly ProductGroup[];
  /** Lower-case runtime name → its version slot (python → `python version`). */
  readonly runtimes: Readonly<Record<string, string>>;
  readonly subjects: SubjectVocabulary;
  readonly triggers: TriggerVocabulary;
  /** The user's own life: rent, weight, a pet's name (facts-personal.ts). */
  readonly personal: PersonalVocabulary;
  /** Numeric settings: line length, coverage, retention, TTL, timeout (facts-settings.ts). */
  readonly settings: SettingsVocabulary;
}

export interface VocabularyOverrides {
  readonly entities?: Partial<EntityVocabulary>;
  readonly dates?: Partial<DateVocabulary>;
  /** Replaces the product list; spread `DEFAULT_VOCABULARY.products` to extend it. */
  readonly products?: readonly ProductGroup[];
  readonly runtimes?: Readonly<Record<string, string>>;
  readonly subjects?: Partial<SubjectVocabulary>;
  readonly triggers?: Partial<TriggerVocabulary>;
  readonly personal?: Partial<PersonalVocabulary>;
  readonly settings?: Partial<SettingsVocabulary>;
}

export const DEFAULT_VOCABULARY: WmVocabulary = {
  entities: ENTITY_VOCABULARY,
  dates: DATE_VOCABULARY,
  products: PRODUCT_GROUPS,
  runtimes: RUNTIME_VERSION_SUBJECTS,
  subjects: SUBJECT_VOCABULARY,
  triggers: TRIGGER_VOCABULARY,
  personal: PERSONAL_VOCABULARY,
  settings: SETTINGS_VOCABULARY,
};

export function resolveVocabulary(overrides: VocabularyOverrides = {}): WmVocabulary {
  const vocabulary: WmVocabulary = {
    entities: { ...ENTITY_VOCABULARY, ...overrides.entities },
    dates: { ...DATE_VOCABULARY, ...overrides.dates },
    products: overrides.products ?? PRODUCT_GROUPS,
    runtimes: overrides.runtimes ?? RUNTIME_VERSION_SUBJECTS,
    subjects: { ...SUBJECT_VOCABULARY, ...overrides.subjects },
    triggers: { ...TRIGGER_VOCABULARY, ...overrides.triggers },
    personal: { ...PERSONAL_VOCABULARY, ...overrides.personal },
    settings: { ...SETTINGS_VOCABULARY, ...overrides.settings },
  };
  validate(vocabulary);
  return vocabulary;
}

function fail(path: string, what: string): never {
  throw new AssistantError('invalid_config', `Working-memory vocabulary: ${path} ${what}.`);
}

function checkStrings(path: string, value: unknown): void {
  if (!Array.isArray(value) || value.some((w) => typeof w !== 'string')) fail(path, 'must be a list of strings');
}

function checkRecord(path: string, value: unknown, type: 'string' | 'number'): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== type && !(v === null && path.endsWith('enWeekPrefixes')))
      fail(`${path}.${key}`, `must be a ${type}`);
  }
}

const PERIOD_UNITS = new Set(['week', 'weekend', 'month', 'year']);

function checkPeriods(path: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'must be an object');
  for (const [key, v] of Object.entries(value)) {
    const p = v as { unit?: unknown; offset?: unknown } | null;
    if (typeof p !== 'object' || p === null || !PERIOD_UNITS.has(p.unit as string) || !Number.isInteger(p.offset))
      fail(`${path}.${key}`, 'must be { unit: week | weekend | month | year, offset: an integer }');
  }
}

function checkPattern(path: string, source: unknown): void {
  if (typeof source !== 'string') fail(path, 'must be a regular-expression source');
  try {
    new RegExp(source, 'u');
  } catch (error) {
    fail(path, `is not a valid regular expression (${(error as Error).message})`);
  }
}

function validate(v: WmVocabulary): void {
  for (const [section, body] of Object.entries({
    entities: v.entities,
    dates: v.dates,
    subjects: v.subjects,
    triggers: v.triggers,
  })) {
    for (const [key, value] of Object.entries(body)) {
      const path = `${section}.${key}`;
      if (Array.isArray(value)) {
        checkStrings(path, value);
        if (key === 'topicQualifiers') value.forEach((s, i) => checkPattern(`${path}[${i}]`, s));
      } else if (typeof value === 'string') {
        if (key.endsWith('Pattern')) checkPattern(path, value);
      } else if (key === 'aliases') {
        for (const [subject, words] of Object.entries(value as object)) checkStrings(`${path}.${subject}`, words);
      } else if (key === 'sidedSubjects') {
        for (const [subject, sides] of Object.entries(value as object)) {
          if (typeof sides !== 'object' || sides === null) fail(`${path}.${subject}`, 'must be an object');
          for (const [side, words] of Object.entries(sides as object)) checkStrings(`${path}.${subject}.${side}`, words);
        }
      } else if (key === 'relativePeriods') {
        checkPeriods(path, value);
      } else {
        const sample = Object.values(value as object).find((x) => x !== null);
        checkRecord(path, value, typeof sample === 'number' ? 'number' : 'string');
      }
    }
  }
  if (!Array.isArray(v.products)) fail('products', 'must be a list');
  v.products.forEach((group, i) => {
    if (typeof group?.subject !== 'string' || group.subject.trim() === '')
      fail(`products[${i}].subject`, 'must be a non-empty string');
    checkStrings(`products[${i}].names`, group.names);
    if (group.exactNames !== undefined) checkStrings(`products[${i}].exactNames`, group.exactNames);
    if (group.asWrittenOnly !== undefined) checkStrings(`products[${i}].asWrittenOnly`, group.asWrittenOnly);
  });
  checkRecord('runtimes', v.runtimes, 'string');
  if (!Array.isArray(v.personal.slots)) fail('personal.slots', 'must be a list');
  v.personal.slots.forEach((slot, i) => {
    if (typeof slot?.subject !== 'string' || slot.subject.trim() === '') fail(`personal.slots[${i}].subject`, 'must be a non-empty string');
    checkStrings(`personal.slots[${i}].words`, slot.words);
    if (!PERSONAL_VALUE_KINDS.has(slot.value)) fail(`personal.slots[${i}].value`, `must be one of ${[...PERSONAL_VALUE_KINDS].join(', ')}`);
  });
  checkRecord('personal.pets', v.personal.pets, 'string');
  checkRecord('personal.family', v.personal.family, 'string');
  for (const key of ['units', 'notSlots', 'notSlotNouns', 'others'] as const) checkStrings(`personal.${key}`, v.personal[key]);
  if (!Array.isArray(v.settings.slots)) fail('settings.slots', 'must be a list');
  v.settings.slots.forEach((slot, i) => {
    if (typeof slot?.subject !== 'string') fail(`settings.slots[${i}].subject`, 'must be a string');
    checkStrings(`settings.slots[${i}].words`, slot.words);
    if (!SETTING_VALUE_KINDS.has(slot.value)) fail(`settings.slots[${i}].value`, `must be one of ${[...SETTING_VALUE_KINDS].join(', ')}`);
    if (slot.qualifiers !== undefined) checkRecord(`settings.slots[${i}].qualifiers`, slot.qualifiers, 'string');
    // A setting with no subject of its own is named only by its qualifiers.
    if (slot.subject.trim() === '' && Object.keys(slot.qualifiers ?? {}).length === 0) fail(`settings.slots[${i}].qualifiers`, 'needed when subject is empty');
  });
  for (const key of ['links', 'linkFillers', 'durationUnits', 'countUnits'] as const) checkStrings(`settings.${key}`, v.settings[key]);
}

const SETTING_VALUE_KINDS: ReadonlySet<string> = new Set(['count', 'percent', 'duration']);

const PERSONAL_VALUE_KINDS: ReadonlySet<string> = new Set(['amount', 'number', 'name', 'model', 'date', 'words']);

/** Slots filled by rules of their own rather than by slot words (facts-special.ts). */
const RULE_SUBJECTS = ['budget', 'deadline', 'region', 'timezone', 'answer language', 'answer length', 'name', 'allergy', 'diet', 'location', 'destination'];

/**
 * Every subject the vocabulary names (lower-cased): slot words' subjects, runtimes' version slots, the languages of
 * pieces of work, the rules' own.
 */
export function vocabularySubjects(vocabulary: WmVocabulary): ReadonlySet<string> {
  const named = [
    ...Object.keys(vocabulary.subjects.aliases),
    ...Object.values(vocabulary.runtimes),
    ...Object.values(vocabulary.subjects.languageObjects),
    ...RULE_SUBJECTS,
    ...vocabulary.personal.slots.map((s) => s.subject),
  ];
  return new Set(named.map((s) => s.toLowerCase()));
}
