/**
 * Inline CSS properties set through the CSSOM (`style.setProperty`), never as a `style` attribute. The shipped
 * Content-Security-Policy has no 'unsafe-inline' for styles, which blocks a `style="…"` binding, and Lit's `styleMap`
 * too (it writes the attribute on the first render); CSSOM writes are not inline styles and pass.
 *
 *   html`<span ${cssProps({ width: `${share}%` })}></span>`
 */
import { nothing } from 'lit';
import { Directive, PartType, directive, type ElementPart, type PartInfo } from 'lit/directive.js';

/** Property name (kebab-case, or a `--custom` property) → value. */
export type CssProps = Readonly<Record<string, string>>;

class CssPropsDirective extends Directive {
  private _names = new Set<string>();

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('cssProps() goes on an element: <span ${cssProps({…})}>');
  }

  render(_props: CssProps): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [props]: [CssProps]): typeof nothing {
    const style = (part.element as HTMLElement).style;
    for (const name of this._names) {
      if (!(name in props)) {
        style.removeProperty(name);
        this._names.delete(name);
      }
    }
    for (const [name, value] of Object.entries(props)) {
      style.setProperty(name, value);
      this._names.add(name);
    }
    return nothing;
  }
}

export const cssProps = directive(CssPropsDirective);
