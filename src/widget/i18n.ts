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
};

export const STRINGS: Readonly<Record<WidgetLang, WidgetStrings>> = { en, zh };
