/** The widget's `scope`: a path prefix that its search, prompts and sources keep to. Pure. */

/** Whether a link's path lies under `scope` (a path prefix; '' or '/' is everything). */
export function inScope(href: string, scope: string): boolean {
  if (scope === '' || scope === '/') return true;
  let path: string;
  try {
    path = new URL(href).pathname;
  } catch {
    return false;
  }
  return path.startsWith(scope.startsWith('/') ? scope : `/${scope}`);
}
