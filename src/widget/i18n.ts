/** The widget's strings, English and Chinese. Small on purpose: it ships in the eager chunk. */
import type { WidgetLang } from './runtime/types.ts';

export interface WidgetStrings {
  launcher: string;
  title: string;
  newConversation: string;
  close: string;
  input: string;
  placeholder: string;
  send: string;
  stop: string;
  retry: string;
  sources: string;
  you: string;
  assistant: string;
  stopped: string;
  empty: string;
  starting: string;
  copy: string;
  copied: string;
  image: string;
  hint: string;
  /** `{sent}`, `{total}`, `{tokens}`: numbers. */
  partlySent: string;
  searchPlaceholder: string;
  searchResults: string;
  noResults: string;
  askAssistant: string;
  searchHint: string;
  /** `{file}`, `{host}`, `{size}`. */
  consent: string;
  consentSize: string;
  consentNoSize: string;
  consentAccept: string;
  consentDecline: string;
  searchEmpty: string;
  /** The label over the nearest sections when the docs do not cover a question. */
  nearest: string;
  suggested: string;
  followUps: string;
  /** `{topic}`: a section's heading. */
  followUpQuestion: string;
  helpful: string;
  notHelpful: string;
  copyAnswer: string;
}

const en: WidgetStrings = {
  launcher: 'Ask the docs',
  title: 'Ask the docs',
  newConversation: 'New conversation',
  close: 'Close',
  input: 'Your question',
  placeholder: 'Ask a question about these docs…',
  send: 'Send',
  stop: 'Stop',
  retry: 'Retry',
  sources: 'Sources',
  you: 'You',
  assistant: 'Assistant',
  stopped: 'Stopped.',
  empty: 'Answers come from a small model running in your browser, from this site’s docs. Nothing you type leaves your device.',
  starting: 'Starting…',
  copy: 'Copy',
  copied: 'Copied',
  image: 'image',
  hint: 'Enter to send · Shift+Enter for a new line · Esc to close',
  partlySent: 'Only the first {sent} of {total} characters (about {tokens} tokens) were sent to the model; your whole question is kept.',
  searchPlaceholder: 'Search the docs…',
  searchResults: 'Matching sections',
  noResults: 'No section of these docs matches.',
  askAssistant: 'Ask the assistant',
  searchHint: '↑↓ to choose · Enter to open · Esc to close',
  consent: 'The assistant answers with a small model that runs in your browser. It downloads {file} from {host} ({size}) once and keeps it on this device; your questions never leave it.',
  consentSize: 'about {mb} MB',
  consentNoSize: 'size not stated',
  consentAccept: 'Download and ask',
  consentDecline: 'Keep searching',
  searchEmpty: 'Type to search this site’s docs. Nothing is downloaded until you ask the assistant.',
  nearest: 'Nearest sections',
  suggested: 'Suggested',
  followUps: 'Ask next',
  followUpQuestion: 'Tell me about “{topic}”.',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  copyAnswer: 'Copy answer',
};

const zh: WidgetStrings = {
  launcher: '问文档',
  title: '问文档',
  newConversation: '新对话',
  close: '关闭',
  input: '你的问题',
  placeholder: '就这些文档提个问题…',
  send: '发送',
  stop: '停止',
  retry: '重试',
  sources: '来源',
  you: '你',
  assistant: '助手',
  stopped: '已停止。',
  empty: '回答来自在你浏览器中运行的小模型，依据本站文档。你输入的内容不会离开你的设备。',
  starting: '正在启动…',
  copy: '复制',
  copied: '已复制',
  image: '图片',
  hint: 'Enter 发送 · Shift+Enter 换行 · Esc 关闭',
  partlySent: '只有前 {sent} 个字符（共 {total} 个，约 {tokens} 个词元）发送给了模型；完整的问题已保存。',
  searchPlaceholder: '搜索文档…',
  searchResults: '匹配的章节',
  noResults: '这些文档里没有匹配的章节。',
  askAssistant: '问助手',
  searchHint: '↑↓ 选择 · Enter 打开 · Esc 关闭',
  consent: '助手用一个在你浏览器里运行的小模型回答。它会从 {host} 下载一次 {file}（{size}）并保存在本设备上；你的问题不会离开本设备。',
  consentSize: '约 {mb} MB',
  consentNoSize: '大小未注明',
  consentAccept: '下载并提问',
  consentDecline: '继续搜索',
  searchEmpty: '输入文字即可搜索本站文档。在你询问助手之前，不会下载任何东西。',
  nearest: '最接近的章节',
  suggested: '推荐问题',
  followUps: '接着问',
  followUpQuestion: '介绍一下“{topic}”。',
  helpful: '有帮助',
  notHelpful: '没有帮助',
  copyAnswer: '复制回答',
};

export const STRINGS: Readonly<Record<WidgetLang, WidgetStrings>> = { en, zh };
