/** Whether a path (or URL) lies under the API prefix; with no prefix, everything does. */
export const underApiPrefix = (prefix: string, path: string): boolean =>
  !prefix || path === prefix || path.startsWith(`${prefix}/`);
