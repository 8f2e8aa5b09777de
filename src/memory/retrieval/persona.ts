/**
 * Questions about a person's traits and likely choices ("Would Priya likely enjoy …?", "What might Tomás's
 * degree be in?", "她会不会喜欢…？") are answered by what that person said about themselves — "I love …",
 * "I'm allergic to …", "my dream is …", 我喜欢 / 我一直想 / 我的梦想 — in words that rarely match the question's.
 * Two cheap, general signals, no model: whether a query is such a hypothetical (conjecture words), and whether
 * a turn states something about its speaker (first person with a verb of liking, wanting, being, believing).
 * A turn's flag is computed once and kept (turns are immutable once indexed). Pure, no DOM.
 */

/** Conjecture: would / likely / might / could … be considered; 会不会 / 可能 / 大概 / 应该会. */
const HYPOTHETICAL_EN = /\b(?:would|might|likely|probably|possibly|could)\b|\bconsidered\b/i;
const HYPOTHETICAL_ZH = /会不会|可能|大概|应该会|是否会|会喜欢|倾向/;

export function isHypothetical(message: string): boolean {
  return HYPOTHETICAL_EN.test(message) || HYPOTHETICAL_ZH.test(message);
}

/** First person: in a chat with the assistant, "Would I like …?" / 我会不会喜欢 asks about the user. */
const FIRST_PERSON_EN = /\b(?:i|me|my|myself)\b/i;

export function asksAboutUser(message: string): boolean {
  return FIRST_PERSON_EN.test(message) || message.includes('我');
}

const ADVERB = String.raw`(?:(?:always|really|truly|just|also|still|so|too|definitely|totally|absolutely|kinda|kind of|never|now|even|all)\s+)*`;
const STANCE = String.raw`(?:love|loved|like|liked|enjoy|enjoyed|prefer|adore|want|wanted|wish|hope|dream|dreamed|believe|value|care|need|hate|feel|felt|find|plan|aim|am|was|have|had|grew|used)`;
const SELF_EN = [
  // I love / I've always wanted / I really enjoy …
  new RegExp(String.raw`\bi(?:['’](?:ve|d|ll))?\s+${ADVERB}${STANCE}\b`, 'i'),
  // I'm a huge fan / I'm into / I'm keen on / I'm allergic …
  new RegExp(String.raw`\bi(?:['’]m|\s+am)\s+${ADVERB}(?:a\s+|an\s+|the\s+)?(?:big\s+|huge\s+)?\w+`, 'i'),
  // my passion / my dream / my favorite …
  /\bmy\s+(?:favou?rite|passion|dream|goal|goals|love|hobby|hobbies|interest|interests|career|job|degree|family|kids|values?|faith|beliefs?|plan|plans)\b/i,
];
const SELF_ZH = /我(?:们)?(?:很|也|一直|最|真的|特别|非常|还|都|从小|本来|一向|总是)*(?:喜欢|爱|热爱|是|想|希望|打算|梦想|讨厌|害怕|偏爱|擅长|对.{1,8}(?:感兴趣|过敏)|过敏|信|在乎|需要|计划)|我的(?:梦想|目标|爱好|兴趣|工作|专业|家|信仰|计划)/;

/** Whether a text states something about its speaker (first person with a verb of liking, wanting, being…). */
export function isSelfStatement(text: string): boolean {
  return SELF_ZH.test(text) || SELF_EN.some((re) => re.test(text));
}
