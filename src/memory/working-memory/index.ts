/**
 * Working-memory extraction (seed 001): entities, facts as subject slots, deprecations and the topic, from one
 * message, in Chinese and English, with vocabularies kept as data. Pure, no DOM. The state that keeps what was
 * extracted (overwrite, expiry, pinning) is the layered memory's `working-memory.ts`. The public entry: code
 * outside this folder imports from here.
 */
export { createExtractor, dateMentions, monthsNamed, type Extractor } from './extract.ts';
export { entitiesWithPassingDates } from './entities-today.ts';
export type { Extraction } from './types.ts';
export { productNames, type ProductNames } from './product-names.ts';
export type { DateMention, MentionedTime } from '../../shared/date-mention.ts';
