// ---------------------------------------------------------------------------------------------------
// Relative URL normalisation (shared by the SPA and the server so both look up the same key)
// ---------------------------------------------------------------------------------------------------

/**
 * The content key of a relative URL: query and fragment dropped, repeated and trailing slashes
 * removed, lower case. `/Account/Policies/?id=1` -> `/account/policies`.
 */
export function normaliseContentPath(relativeUrl: string): string {
  const path = relativeUrl.split(/[?#]/, 1)[0] ?? '';
  const collapsed = path.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return (collapsed === '' ? '/' : collapsed).toLowerCase();
}
