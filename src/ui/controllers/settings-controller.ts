/** The saved settings for the app, validated before they are kept; listeners hear of every saved change. */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { DEFAULT_SETTINGS, loadSettings, saveSettings, validateSettings, type AppSettings, type FieldError } from '../data/settings.ts';

export class SettingsController implements ReactiveController {
  value: AppSettings = loadSettings();
  onChange: ((next: AppSettings, previous: AppSettings) => void) | null = null;

  constructor(private readonly _host: ReactiveControllerHost) {
    _host.addController(this);
  }

  hostConnected(): void {}

  /** Keeps `next` if valid; returns the problems otherwise (nothing is changed then). */
  save(next: AppSettings): FieldError[] {
    const errors = validateSettings(next);
    if (errors.length > 0) return errors;
    const previous = this.value;
    this.value = structuredClone(next);
    try {
      saveSettings(this.value);
    } catch {
      // Private mode: the settings apply to this visit.
    }
    this.onChange?.(this.value, previous);
    this._host.requestUpdate();
    return [];
  }

  /** Back to the defaults, in memory only (after "delete all my data" cleared storage). */
  reset(): void {
    this.value = structuredClone(DEFAULT_SETTINGS) as AppSettings;
    this._host.requestUpdate();
  }
}
