/**
 * Styles the components share. Colours are custom properties set once on `<qwen-chat-app>` (light, and dark
 * when the system asks for it); every `var()` here has the light value as fallback so a component works alone.
 */
import { css } from 'lit';

/** Hidden on screen, still read by screen readers. */
export const visuallyHidden = css`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

export const themeTokens = css`
  :host {
    --qwen-fg: #1c1c1e;
    --qwen-muted: #5f6068;
    --qwen-bg: #ffffff;
    --qwen-surface: #ffffff;
    --qwen-surface-2: #f5f5f7;
    --qwen-border: #dcdce0;
    --qwen-accent: #3056d3;
    --qwen-accent-fg: #ffffff;
    --qwen-focus: #3056d3;
    --qwen-user-bg: #e8eefc;
    --qwen-assistant-bg: transparent;
    --qwen-danger: #b3261e;
    --qwen-ok: #1e7d32;
    --qwen-warn-bg: #fff4d6;
    --qwen-warn-fg: #6b4e00;
    --qwen-code-bg: #f6f8fa;
    --qwen-badge-bg: #e8eefc;
    --qwen-badge-fg: #1d3b8b;
    --qwen-sec-system: #7c5cd6;
    --qwen-sec-working: #d9822b;
    --qwen-sec-retrieval: #2b8a6e;
    --qwen-sec-history: #3b82c4;
    --qwen-sec-input: #3056d3;
    --qwen-sec-reserve: #c9cad1;
    --qwen-hl-keyword: #a626a4;
    --qwen-hl-string: #50a14f;
    --qwen-hl-comment: #8a8f98;
    --qwen-hl-number: #986801;
    --qwen-hl-title: #4078f2;
    color-scheme: light;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --qwen-fg: #e8e8ea;
      --qwen-muted: #a4a5ad;
      --qwen-bg: #17171a;
      --qwen-surface: #202024;
      --qwen-surface-2: #1c1c20;
      --qwen-border: #3a3a40;
      --qwen-accent: #6f8cff;
      --qwen-accent-fg: #0d1020;
      --qwen-focus: #8aa2ff;
      --qwen-user-bg: #26324f;
      --qwen-danger: #ff8a80;
      --qwen-ok: #7bd88f;
      --qwen-warn-bg: #3d3212;
      --qwen-warn-fg: #ffe08a;
      --qwen-code-bg: #111114;
      --qwen-badge-bg: #26324f;
      --qwen-badge-fg: #c8d6ff;
      --qwen-sec-reserve: #4a4b52;
      --qwen-hl-keyword: #c678dd;
      --qwen-hl-string: #98c379;
      --qwen-hl-comment: #7f848e;
      --qwen-hl-number: #d19a66;
      --qwen-hl-title: #61afef;
      color-scheme: dark;
    }
  }
`;

export const controls = css`
  button,
  .button {
    font: inherit;
    font-size: 0.9rem;
    padding: 0.35rem 0.8rem;
    border-radius: 8px;
    border: 1px solid var(--qwen-border, #dcdce0);
    background: var(--qwen-surface, #fff);
    color: var(--qwen-fg, #1c1c1e);
    cursor: pointer;
  }
  button.primary {
    background: var(--qwen-accent, #3056d3);
    border-color: var(--qwen-accent, #3056d3);
    color: var(--qwen-accent-fg, #fff);
  }
  button.danger {
    color: var(--qwen-danger, #b3261e);
    border-color: currentColor;
  }
  button.ghost {
    border-color: transparent;
    background: transparent;
  }
  button:disabled {
    opacity: 0.5;
    cursor: default;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible,
  a:focus-visible {
    outline: 2px solid var(--qwen-focus, #3056d3);
    outline-offset: 2px;
  }
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
    background: var(--qwen-surface, #fff);
    border: 1px solid var(--qwen-border, #dcdce0);
    border-radius: 8px;
    padding: 0.35rem 0.5rem;
  }
  [aria-invalid='true'] {
    border-color: var(--qwen-danger, #b3261e);
  }
  .sr-only {
    ${visuallyHidden}
  }
  .muted {
    color: var(--qwen-muted, #5f6068);
  }
  .error {
    color: var(--qwen-danger, #b3261e);
  }
  .ok {
    color: var(--qwen-ok, #1e7d32);
  }
`;

/** Panels beside the chat (inspector, model, settings, data) share this frame. */
export const panelStyles = css`
  :host {
    display: block;
    font-size: 0.9rem;
    line-height: 1.45;
  }
  h2 {
    font-size: 1.05rem;
    margin: 0 0 0.75rem;
  }
  h3 {
    font-size: 0.95rem;
    margin: 1.25rem 0 0.5rem;
  }
  section + section {
    border-top: 1px solid var(--qwen-border, #dcdce0);
    margin-top: 1rem;
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.25rem 0.75rem;
    margin: 0;
  }
  dt {
    color: var(--qwen-muted, #5f6068);
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    font-size: 0.85rem;
  }
  th,
  td {
    text-align: left;
    padding: 0.25rem 0.4rem;
    border-bottom: 1px solid var(--qwen-border, #dcdce0);
    vertical-align: top;
  }
  td.num,
  th.num {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
`;
