/**
 * The widget's styles, all inside its shadow root. `:host { all: initial !important }` cuts every inherited
 * property (font, color, line-height, letter-spacing…) coming from the page; important declarations of a shadow
 * tree win over the page's, so even `* { all: unset !important }` on the host page cannot reach in. Sizes are in
 * px, never rem (a page may set its root font size). Theming is through custom properties, which `all` leaves alone.
 */
import { css } from 'lit';

export const widgetStyles = css`
  :host {
    all: initial !important;
    display: contents !important;
  }
  .root {
    --_accent: var(--qwen-assistant-accent, #3056d3);
    --_accent-fg: var(--qwen-assistant-accent-fg, #fff);
    --_bg: var(--qwen-assistant-bg, #fff);
    --_fg: var(--qwen-assistant-fg, #1f2328);
    --_muted: var(--qwen-assistant-muted, #5f6068);
    --_border: var(--qwen-assistant-border, #d6d7dc);
    --_surface: var(--qwen-assistant-surface, #f4f5f7);
    --_radius: var(--qwen-assistant-radius, 12px);
    --_font: var(--qwen-assistant-font, system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif);
    --_size: var(--qwen-assistant-font-size, 14px);
    /* For the shared Markdown styles of the app. */
    --qwen-accent: var(--_accent);
    --qwen-border: var(--_border);
    --qwen-muted: var(--_muted);
    --qwen-surface: var(--_surface);
    --qwen-code-bg: var(--_surface);
    font-family: var(--_font);
    font-size: var(--_size);
    line-height: 1.5;
    color: var(--_fg);
    text-align: start;
  }
  @media (prefers-color-scheme: dark) {
    .root {
      --_bg: var(--qwen-assistant-bg, #1d1e22);
      --_fg: var(--qwen-assistant-fg, #e6e6ea);
      --_muted: var(--qwen-assistant-muted, #a3a4ad);
      --_border: var(--qwen-assistant-border, #3a3b42);
      --_surface: var(--qwen-assistant-surface, #2a2b31);
    }
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button,
  textarea {
    font: inherit;
    color: inherit;
    letter-spacing: inherit;
    margin: 0;
  }
  button {
    cursor: pointer;
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }
  .launcher {
    position: fixed;
    bottom: 20px;
    right: 20px;
    z-index: var(--qwen-assistant-z-index, 2147483000);
    display: flex;
    align-items: center;
    gap: 8px;
    height: 48px;
    padding: 0 18px 0 14px;
    border: none;
    border-radius: 24px;
    background: var(--_accent);
    color: var(--_accent-fg);
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.2);
    font-weight: 600;
  }
  .left .launcher {
    right: auto;
    left: 20px;
  }
  .launcher svg {
    width: 20px;
    height: 20px;
    fill: currentColor;
  }
  .panel {
    position: fixed;
    bottom: 80px;
    right: 20px;
    z-index: var(--qwen-assistant-z-index, 2147483000);
    display: flex;
    flex-direction: column;
    width: 400px;
    height: min(620px, calc(100vh - 100px));
    background: var(--_bg);
    color: var(--_fg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: 0 8px 32px rgb(0 0 0 / 0.25);
    overflow: hidden;
  }
  .left .panel {
    right: auto;
    left: 20px;
  }
  .panel[hidden] {
    display: none;
  }
  header {
    display: flex;
    align-items: center;
    gap: 4px;
    padding: 8px 8px 8px 16px;
    border-bottom: 1px solid var(--_border);
  }
  h2 {
    flex: 1;
    margin: 0;
    font-size: 15px;
    font-weight: 600;
  }
  .icon {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-width: 32px;
    height: 32px;
    padding: 0 8px;
    border: none;
    border-radius: 8px;
    background: transparent;
  }
  .icon:hover {
    background: var(--_surface);
  }
  .messages {
    flex: 1;
    overflow-y: auto;
    padding: 12px 16px;
    display: flex;
    flex-direction: column;
    gap: 12px;
  }
  .empty {
    color: var(--_muted);
    margin: auto 0;
    text-align: center;
  }
  .message {
    max-width: 100%;
    overflow-wrap: anywhere;
  }
  .message.user {
    align-self: flex-end;
    max-width: 85%;
    padding: 8px 12px;
    border-radius: var(--_radius);
    background: var(--_accent);
    color: var(--_accent-fg);
  }
  .message .text {
    white-space: pre-wrap;
  }
  .note {
    color: var(--_muted);
    font-style: italic;
  }
  .sources-block {
    margin-top: 8px;
    padding-top: 6px;
    border-top: 1px solid var(--_border);
  }
  .sources {
    margin: 2px 0 0;
    padding: 0;
    list-style: none;
    font-size: 13px;
  }
  .sources li {
    margin: 2px 0;
  }
  .sources-label {
    color: var(--_muted);
    font-size: 12px;
  }
  .sources a {
    color: var(--_accent);
    text-decoration: none;
  }
  .sources a:hover {
    text-decoration: underline;
  }
  .status {
    display: flex;
    align-items: center;
    gap: 8px;
    min-height: 28px;
    padding: 4px 16px;
    font-size: 12px;
    color: var(--_muted);
    border-top: 1px solid var(--_border);
  }
  .status .text {
    flex: 1;
  }
  .status.error {
    color: #c62828;
  }
  progress {
    width: 80px;
    height: 6px;
    accent-color: var(--_accent);
  }
  .status button {
    border: 1px solid currentColor;
    border-radius: 6px;
    background: transparent;
    padding: 2px 8px;
  }
  form {
    display: flex;
    gap: 8px;
    padding: 8px 12px 4px;
  }
  textarea {
    flex: 1;
    min-height: 40px;
    max-height: 140px;
    resize: none;
    padding: 9px 12px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
    line-height: 1.4;
  }
  .send {
    padding: 0 14px;
    border: none;
    border-radius: 10px;
    background: var(--_accent);
    color: var(--_accent-fg);
  }
  .send:disabled {
    opacity: 0.5;
    cursor: default;
  }
  .search {
    flex: 0 1 auto;
    max-height: 60%;
    overflow-y: auto;
    padding: 8px 12px 4px;
    border-bottom: 1px solid var(--_border);
  }
  .search.compact {
    max-height: 30%;
  }
  .search.compact .snippet {
    display: none;
  }
  .search ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .search li > a,
  .search li > span {
    display: block;
    padding: 6px 8px;
    border-radius: 8px;
    color: inherit;
    text-decoration: none;
  }
  .search li.active > a,
  .search li > a:hover {
    background: var(--_surface);
    outline: 2px solid var(--_accent);
    outline-offset: -2px;
  }
  .result-title {
    display: block;
    font-weight: 600;
    color: var(--_accent);
  }
  .snippet {
    display: block;
    font-size: 0.92em;
    color: var(--_muted);
  }
  .snippet mark {
    background: none;
    color: var(--_fg);
    font-weight: 600;
  }
  .no-results {
    margin: 4px 8px;
    color: var(--_muted);
  }
  .ask-assistant,
  .consent button {
    margin: 6px 8px;
    padding: 6px 12px;
    border: 1px solid var(--_accent);
    border-radius: 8px;
    background: var(--_bg);
    color: var(--_accent);
  }
  .consent {
    padding: 10px 16px;
    border-bottom: 1px solid var(--_border);
    background: var(--_surface);
  }
  .consent p {
    margin: 0 0 4px;
  }
  .consent .accept {
    background: var(--_accent);
    color: var(--_accent-fg);
  }
  .suggestions,
  .follow-ups {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    justify-content: center;
  }
  .follow-ups {
    justify-content: flex-start;
    margin-top: 6px;
  }
  .chip {
    padding: 4px 10px;
    border: 1px solid var(--_border);
    border-radius: 999px;
    background: var(--_bg);
    color: var(--_fg);
    font-size: 0.92em;
  }
  .chip:hover {
    border-color: var(--_accent);
  }
  .answer-actions {
    display: flex;
    gap: 4px;
    margin-top: 6px;
  }
  .answer-actions button {
    padding: 2px 8px;
    border: 1px solid transparent;
    border-radius: 6px;
    background: none;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .answer-actions button[aria-pressed='true'] {
    border-color: var(--_accent);
    color: var(--_fg);
  }
  .hint {
    margin: 0;
    padding: 0 12px 8px;
    font-size: 11px;
    color: var(--_muted);
  }
  @media (max-width: 599.98px) {
    .panel,
    .left .panel {
      inset: 0;
      width: 100%;
      height: 100%;
      border: none;
      border-radius: 0;
    }
    .hint {
      display: none;
    }
  }
  @media (prefers-reduced-motion: no-preference) {
    .launcher {
      transition: transform 120ms ease;
    }
    .launcher:hover {
      transform: translateY(-1px);
    }
  }
`;
