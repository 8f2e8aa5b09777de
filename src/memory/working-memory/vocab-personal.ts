/**
 * The user's own life (facts-personal.ts): slots a private chat fills — rent, salary, weight, a pet's name — with the
 * words that name them and the kind of value each takes. Data only.
 */

/**
 * What a slot's value looks like: an amount entity, a number with its unit, a name, a product model (Latin letters or
 * digits, a Chinese brand before them: iPhone 15 Pro, 小米14, 华为 Mate 60), a date entity, or a few words.
 */
export type PersonalValueKind = 'amount' | 'number' | 'name' | 'model' | 'date' | 'words';

export interface PersonalSlot {
  /** The slot, a short English name as the labels' conventions file it. */
  readonly subject: string;
  /** Words that name it, either language: 房租, rent. */
  readonly words: readonly string[];
  readonly value: PersonalValueKind;
}

export interface PersonalVocabulary {
  readonly slots: readonly PersonalSlot[];
  /** Animals a pet may be → their English name: a pet's name fills `<animal> name` (我家猫叫团子 → cat name). */
  readonly pets: Readonly<Record<string, string>>;
  /** Family members → their English name: an age said of one fills `<member> age` (我女儿7岁 → daughter age = 7). */
  readonly family: Readonly<Record<string, string>>;
  /** Units a number may carry (65公斤, 70 kg, 42码): kept with the number as written. */
  readonly units: readonly string[];
  /** Heads of "my X is Y" that name no slot of the user's (my goal is to…, my plan is): the generic English rule leaves them alone. */
  readonly notSlots: readonly string[];
  /** Last words of such heads that make any head none (my biggest question is, my older brother is). */
  readonly notSlotNouns: readonly string[];
  /** People whose things are not the user's, just before a slot word: 我妈的, 他, my sister's, her. */
  readonly others: readonly string[];
  /** A medicine the user takes (facts-medication.ts): the words around it, either language. */
  readonly medication: MedicationVocabulary;
}

export interface MedicationVocabulary {
  /** How often or when, before 吃 (每天早上吃一片…, 每晚睡前吃…): the taking is a habit, not one meal. */
  readonly zhWhen: readonly string[];
  /** Verbs of taking a medicine in Chinese: 吃, 服用. */
  readonly zhTake: readonly string[];
  /** Measure words of a dose (一片, 两粒): a thing taken by them is a medicine. */
  readonly zhMeasures: readonly string[];
  /** Endings of a medicine's name said by its kind (降压药, 维生素, 胶囊). */
  readonly zhKinds: readonly string[];
  /** Before the medicine in English: I take, put me on, prescribed. */
  readonly enLeads: readonly string[];
  /** Units of a dose after it (20mg, 5 mg). */
  readonly doseUnits: readonly string[];
  /** How often, in English: every day, twice a day, at night. One of these or a dose makes "I take X" a medicine. */
  readonly enWhen: readonly string[];
  /** Words after "I take" that are no medicine (the bus, a break, notes). */
  readonly notMedicines: readonly string[];
  /** Things eaten by the piece that are no medicine (两颗鸡蛋, 一片面包). */
  readonly zhNotMedicines: readonly string[];
}

export const PERSONAL_VOCABULARY: PersonalVocabulary = {
  slots: [
    { subject: 'rent', words: ['房租', '月租', '租金', 'rent', 'monthly rent'], value: 'amount' },
    { subject: 'salary', words: ['工资', '月薪', '薪水', '薪资', '税前月薪', '税后工资', 'salary', 'monthly salary', 'take-home pay'], value: 'amount' },
    { subject: 'expected salary', words: ['期望月薪', '期望薪资', '期望工资', '期望薪水', 'expected salary', 'salary expectation'], value: 'amount' },
    { subject: 'annual salary', words: ['年薪', 'annual salary', 'yearly salary'], value: 'amount' },
    { subject: 'mortgage payment', words: ['房贷月供', '月供', '房贷每月', 'mortgage payment', 'monthly mortgage', 'mortgage'], value: 'amount' },
    { subject: 'car loan payment', words: ['车贷', '车贷月供', 'car loan', 'car payment', 'car loan payment'], value: 'amount' },
    { subject: 'monthly budget', words: ['生活费', '每月开销', 'monthly budget', 'monthly spending'], value: 'amount' },
    { subject: 'monthly savings', words: ['每个月固定存', '每月固定存', '每个月存', '每月存', '每个月攒', '每月攒', 'monthly savings', 'save each month', 'save every month'], value: 'amount' },
    { subject: 'target university', words: ['目标院校', '目标学校', '目标大学', 'target school', 'target university', 'dream school'], value: 'name' },
    { subject: 'target weight', words: ['目标体重', 'target weight', 'goal weight'], value: 'number' },
    { subject: 'weight', words: ['体重', 'weight', 'i weigh'], value: 'number' },
    { subject: 'height', words: ['身高', 'height'], value: 'number' },
    { subject: 'shoe size', words: ['鞋码', '鞋子尺码', '穿的鞋码', 'shoe size'], value: 'number' },
    { subject: 'clothing size', words: ['衣服尺码', '衣服尺寸', 'clothing size', 'clothes size'], value: 'words' },
    { subject: 'blood type', words: ['血型', 'blood type'], value: 'words' },
    { subject: 'birthday', words: ['生日', 'birthday'], value: 'date' },
    { subject: 'car', words: ['我的车', '我开的车', '我开的是', '家里的车', 'my car', 'i drive'], value: 'name' },
    // Things the user owns, by their model: 我的手表是 Garmin Forerunner 265, my phone's an iPhone 13, 手机是小米14.
    { subject: 'phone', words: ['我的手机', '我手机', '手机是', '手机用的是', '我用的手机', '我现在用的手机', '手机换成', '手机换成了', '新手机是', 'my phone', 'my new phone'], value: 'model' },
    { subject: 'watch', words: ['我的手表', '我手表', '我戴的手表', 'my watch'], value: 'model' },
    { subject: 'headphones', words: ['我的耳机', '我用的耳机', 'my headphones', 'my earbuds'], value: 'model' },
    { subject: 'camera', words: ['我的相机', '我用的相机', '我的 camera', '我用的 camera', 'my camera'], value: 'model' },
    { subject: 'router', words: ['我的路由器', '我家路由器', '我家的路由器', '家里路由器', '家里的路由器', '家里用的路由器', '路由器用的是', '路由器用的', 'my router', 'our router', 'home router'], value: 'model' },
    { subject: 'e-reader', words: ['我的阅读器', '我的电子书阅读器', 'my e-reader', 'my ereader'], value: 'model' },
    { subject: 'passport expiry', words: ['护照有效期', '护照到期', '护照过期', 'passport expires', 'passport expiry', 'passport expiration'], value: 'date' },
    { subject: 'credit card limit', words: ['信用卡额度', '额度', 'credit limit', 'credit card limit'], value: 'amount' },
    { subject: 'major', words: ['专业', 'my major', 'i major in', "i'm majoring in"], value: 'words' },
    { subject: 'hometown', words: ['老家', '家乡', 'hometown', 'home town'], value: 'words' },
  ],
  pets: {
    猫: 'cat', 猫咪: 'cat', 小猫: 'cat', 狗: 'dog', 狗狗: 'dog', 小狗: 'dog', 兔子: 'rabbit', 仓鼠: 'hamster', 鹦鹉: 'parrot',
    cat: 'cat', kitten: 'cat', dog: 'dog', puppy: 'dog', rabbit: 'rabbit', bunny: 'rabbit', hamster: 'hamster', parrot: 'parrot',
  },
  family: {
    女儿: 'daughter', 闺女: 'daughter', 儿子: 'son', 孩子: 'kid', 小孩: 'kid', 大儿子: 'older son', 小儿子: 'younger son',
    大女儿: 'older daughter', 小女儿: 'younger daughter', daughter: 'daughter', son: 'son', kid: 'kid',
  },
  units: ['公斤', '千克', 'kg', 'kgs', '斤', '磅', 'lbs', 'lb', 'pounds', 'cm', '厘米', 'm', '米', '码', '号', 'ft'],
  notSlots: [
    // Whole heads: "my goal is to…", "my plan is…", "my job is…" (a marathon goal, a meal plan are slots).
    'goal', 'goals', 'plan', 'plans', 'job', 'day', 'week', 'weekend', 'morning', 'life', 'turn', 'bet', 'take', 'pleasure',
    'choice', 'preference', 'favourite', 'favorite', 'code', 'output', 'build', 'internet', 'connection', 'computer', 'head',
    'back', 'english', 'request', 'answer', 'name', 'email', 'number', 'address',
  ],
  notSlotNouns: [
    // Last words that make any head no slot of the user's: "my biggest question is", "my older brother is".
    'question', 'questions', 'problem', 'problems', 'issue', 'issues', 'guess', 'concern', 'concerns', 'point', 'idea',
    'bad', 'fault', 'understanding', 'worry', 'thought', 'thoughts', 'feeling', 'impression', 'hope', 'wish', 'fear',
    'reason', 'mistake', 'apologies', 'friend', 'friends', 'boss', 'wife', 'husband', 'mom', 'mum', 'dad', 'mother',
    'father', 'kid', 'kids', 'son', 'daughter', 'brother', 'sister', 'partner', 'girlfriend', 'boyfriend', 'team',
    'manager', 'colleague', 'coworker', 'parents', 'family', 'doctor', 'landlord', 'neighbor', 'neighbour', 'error',
    'test', 'tests',
  ],
  medication: {
    zhWhen: ['每天', '每晚', '每日', '天天', '一天', '每顿', '每次饭后', '睡前', '饭后', '早上', '晚上', '早晚'],
    zhTake: ['吃', '服用', '服', '在吃', '吃的是', '用的是'],
    zhMeasures: ['片', '粒', '颗', '丸', '袋', '支', '毫克', 'mg'],
    zhKinds: ['药', '片', '胶囊', '颗粒', '素', '丸'],
    enLeads: ["i take", "i'm taking", 'i am taking', 'put me on', 'started me on', 'prescribed me', "i'm on", 'i am on', 'i started taking', 'switched me to'],
    doseUnits: ['mg', 'mcg', 'µg', 'g', 'ml', 'iu'],
    enWhen: ['every day', 'every morning', 'every night', 'every evening', 'daily', 'once a day', 'twice a day', 'three times a day', 'at night', 'before bed', 'in the morning', 'each morning', 'each night', 'with meals', 'a day'],
    zhNotMedicines: ['鸡蛋', '面包', '吐司', '苹果', '香蕉', '橙子', '水果', '坚果', '核桃', '红枣', '巧克力', '饼干', '馒头', '包子', '饺子', '西瓜', '柠檬', '蛋', '奶酪', '饭', '早饭', '早餐', '午饭', '晚饭', '零食', '糖'],
    notMedicines: ['the', 'a', 'an', 'my', 'it', 'them', 'this', 'that', 'notes', 'note', 'care', 'time', 'breaks', 'break', 'walks', 'the bus', 'bus', 'calls', 'photos', 'classes', 'lessons', 'part', 'turns', 'over', 'off', 'vacation', 'holiday', 'leave'],
  },
  others: [
    '他', '她', '他们', '她们', '朋友', '同事', '室友', '老板', '邻居', '房东', '爸', '妈', '爸爸', '妈妈', '老婆', '老公', '女儿', '儿子',
    '孩子', '哥哥', '姐姐', '弟弟', '妹妹', '男朋友', '女朋友', '爷爷', '奶奶',
    'his', 'her', 'their', "friend's", "sister's", "brother's", "mom's", "mum's", "dad's", "wife's", "husband's",
    "son's", "daughter's", "partner's", "boss's", "colleague's", "roommate's", "neighbor's",
  ],
};
