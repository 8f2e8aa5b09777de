/** Layout of `<qwen-chat-app>`: conversations on the left, the chat, and a panel beside it on the right. */
import { css } from 'lit';
import { visuallyHidden } from './styles.ts';

export const chatAppStyles = css`
  :host {
    display: block;
    height: 100%;
    color: var(--qwen-fg);
    background: var(--qwen-bg);
    font-family: system-ui, -apple-system, 'Segoe UI', 'Noto Sans', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif;
    font-size: 15px;
  }
  .layout {
    display: grid;
    grid-template-columns: 16.5rem minmax(0, 1fr) auto;
    /* One row exactly as tall as the app: the message list and the panel scroll, never the page. */
    grid-template-rows: minmax(0, 1fr);
    height: 100%;
    min-height: 0;
    /* clip, not hidden: nothing (not even scrollIntoView) may scroll the whole layout. */
    overflow: clip;
  }
  .layout[data-sidebar='closed'] {
    grid-template-columns: 0 minmax(0, 1fr) auto;
  }
  aside {
    background: var(--qwen-surface-2);
    border-right: 1px solid var(--qwen-border);
    min-height: 0;
    /* clip, not hidden: nothing (not even scrollIntoView) may scroll the whole layout. */
    overflow: clip;
  }
  .layout[data-sidebar='closed'] aside {
    visibility: hidden;
  }
  main {
    display: flex;
    flex-direction: column;
    min-width: 0;
    min-height: 0;
    container-type: inline-size;
    position: relative;
  }
  header {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    padding: 0.5rem 0.75rem;
    border-bottom: 1px solid var(--qwen-border);
    min-width: 0;
  }
  h1 {
    font-size: 1rem;
    margin: 0;
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
    min-width: 0;
    flex: 0 1 auto;
  }
  header qwen-backend-badge {
    flex: 0 1 auto;
    min-width: 0;
  }
  .spacer {
    flex: 1;
  }
  .tools {
    display: flex;
    gap: 0.25rem;
    flex-wrap: nowrap;
  }
  .tools button {
    white-space: nowrap;
    display: inline-flex;
    gap: 0.35rem;
    align-items: center;
  }
  .tools .icon {
    font-size: 0.95em;
    opacity: 0.8;
  }
  .tools button[aria-pressed='true'] {
    background: var(--qwen-user-bg);
    border-color: var(--qwen-accent);
  }
  .notice {
    margin: 0.5rem auto 0;
    max-width: 46rem;
    padding: 0.5rem 0.75rem;
    border-radius: 8px;
    background: var(--qwen-warn-bg);
    color: var(--qwen-warn-fg);
    font-size: 0.9rem;
  }
  qwen-message-list {
    flex: 1;
    min-height: 0;
  }
  .panel {
    width: min(27rem, 100vw);
    border-left: 1px solid var(--qwen-border);
    background: var(--qwen-surface);
    display: flex;
    flex-direction: column;
    min-height: 0;
  }
  .panel-head {
    display: flex;
    justify-content: flex-end;
    padding: 0.4rem 0.5rem 0;
  }
  .panel-body {
    overflow-y: auto;
    padding: 0 1rem 1.5rem;
    flex: 1;
  }
  @media (max-width: 900px) {
    .layout,
    .layout[data-sidebar='closed'] {
      grid-template-columns: minmax(0, 1fr);
    }
    aside {
      position: fixed;
      inset: 0 auto 0 0;
      width: min(18rem, 85vw);
      z-index: 3;
      box-shadow: 0 0 24px rgb(0 0 0 / 0.25);
    }
    .layout[data-sidebar='closed'] aside {
      display: none;
    }
    .panel {
      position: fixed;
      inset: 0 0 0 auto;
      z-index: 4;
      box-shadow: 0 0 24px rgb(0 0 0 / 0.25);
    }
  }
  /* A narrow chat column (small screen, or a panel open beside it): the title goes (the list has it), the
     engine badge stays, shortened; below that the buttons keep only their icons. */
  @container (max-width: 760px) {
    h1 {
      display: none;
    }
  }
  @container (max-width: 620px) {
    .tools .label {
      ${visuallyHidden}
    }
  }
`;
