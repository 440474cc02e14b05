// Test hooks: what a frame drew, as data-* attributes on the map canvas, for the browser tests and
// tools. They are off the per-frame path unless a page sets `window.seedblockTestHooks = true`
// before the viewer starts (the e2e support does, with an init script).

export const testHooksOn = (): boolean =>
  (globalThis as { seedblockTestHooks?: unknown }).seedblockTestHooks === true;
