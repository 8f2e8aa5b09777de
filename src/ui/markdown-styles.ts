/** Styles for rendered markdown (see markdown.ts), scoped to `.markdown`: text, tables, code blocks, highlighting. */
import { css } from 'lit';

export const markdownStyles = css`
  .markdown {
    line-height: 1.6;
  }
  .markdown > :first-child {
    margin-top: 0;
  }
  .markdown > :last-child {
    margin-bottom: 0;
  }
  .markdown :is(p, ul, ol, blockquote, table) {
    margin: 0.5em 0;
  }
  .markdown :is(ul, ol) {
    padding-left: 1.5em;
  }
  .markdown a {
    color: var(--qwen-accent, #3056d3);
  }
  .markdown blockquote {
    border-left: 3px solid var(--qwen-border, #dcdce0);
    padding-left: 0.75em;
    color: var(--qwen-muted, #5f6068);
  }
  .markdown table {
    border-collapse: collapse;
  }
  .markdown :is(th, td) {
    border: 1px solid var(--qwen-border, #dcdce0);
    padding: 0.2em 0.5em;
  }
  .markdown code {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.88em;
    background: var(--qwen-code-bg, #f6f8fa);
    padding: 0.1em 0.3em;
    border-radius: 4px;
  }
  .markdown .code-block {
    border: 1px solid var(--qwen-border, #dcdce0);
    border-radius: 8px;
    overflow: hidden;
    margin: 0.6em 0;
    background: var(--qwen-code-bg, #f6f8fa);
  }
  .markdown .code-head {
    display: flex;
    align-items: center;
    padding: 0.2em 0.4em 0.2em 0.75em;
    font-size: 0.78rem;
    color: var(--qwen-muted, #5f6068);
    border-bottom: 1px solid var(--qwen-border, #dcdce0);
  }
  .markdown .code-head button {
    margin-left: auto;
    font: inherit;
    padding: 0.15em 0.6em;
    border-radius: 6px;
    border: 1px solid var(--qwen-border, #dcdce0);
    background: var(--qwen-surface, #fff);
    color: var(--qwen-fg, #1c1c1e);
    cursor: pointer;
  }
  .markdown pre {
    margin: 0;
    padding: 0.75em;
    overflow-x: auto;
  }
  .markdown pre code {
    background: none;
    padding: 0;
    font-size: 0.85em;
  }
  .markdown :is(.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-meta) {
    color: var(--qwen-hl-keyword, #a626a4);
  }
  .markdown :is(.hljs-string, .hljs-attr, .hljs-template-variable, .hljs-addition) {
    color: var(--qwen-hl-string, #50a14f);
  }
  .markdown :is(.hljs-comment, .hljs-quote) {
    color: var(--qwen-hl-comment, #8a8f98);
    font-style: italic;
  }
  .markdown :is(.hljs-number, .hljs-literal, .hljs-type, .hljs-params) {
    color: var(--qwen-hl-number, #986801);
  }
  .markdown :is(.hljs-title, .hljs-name, .hljs-section, .hljs-tag, .hljs-variable) {
    color: var(--qwen-hl-title, #4078f2);
  }
  .markdown .image-alt {
    color: var(--qwen-muted, #5f6068);
  }
`;
