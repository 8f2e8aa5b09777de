/** Small formatting helpers shared by the components. */
import type { LoadProgress, ModelSource } from '../engine/protocol.ts';
import type { DownloadRate } from './controllers/engine-controller.ts';
import { t } from './i18n/index.ts';

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB'];
  const exponent = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  return `${value >= 10 || exponent === 0 ? value.toFixed(0) : value.toFixed(1)} ${units[exponent]}`;
}

/** "45 s", "3 min 5 s", "1 h 2 min" (localised units). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('time.seconds', { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t('time.minutes', { m, s: s % 60 });
  return t('time.hours', { h: Math.floor(m / 60), m: m % 60 });
}

export function formatMs(ms: number): string {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url, globalThis.location?.href).host || url;
  } catch {
    return url;
  }
}

/** The model's name as a person reads it: the GGUF file name, or web-llm's model id. */
export function modelName(source: ModelSource): string {
  if (source.ggufUrl !== undefined) {
    const file = source.ggufUrl.split(/[?#]/)[0]!.split('/').pop() ?? source.ggufUrl;
    return decodeURIComponent(file);
  }
  return source.mlc?.modelId ?? '—';
}

/** "120 MB of 491 MB · 12 MB/s · about 30 s left" for a download in progress. */
export function progressText(progress: LoadProgress | null, rate: DownloadRate | null): string {
  const parts: string[] = [];
  if (progress && progress.totalBytes > 0) parts.push(t('load.bytes', { loaded: formatBytes(progress.loadedBytes), total: formatBytes(progress.totalBytes) }));
  if (rate && progress?.phase === 'download') {
    parts.push(t('load.speed', { speed: formatBytes(rate.bytesPerSecond) }));
    if (rate.secondsLeft !== null) parts.push(t('load.left', { time: formatDuration(rate.secondsLeft) }));
  }
  return parts.join(' · ');
}
