/** Shared by both platform adapters. */

/** Only same-origin relative paths are accepted, so a crafted value cannot redirect off-site. */
export function isSafeReturnPath(path: string | null | undefined): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}
