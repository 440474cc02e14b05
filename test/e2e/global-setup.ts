import type { TestProject } from 'vitest/node';
import { launchChromiumServer } from '../support/e2e-stack.ts';

// One Chromium for the whole e2e project: each file connects to it (connectChromium) and each test
// opens contexts of its own, so no file pays a browser start-up.
export default async function setup(project: TestProject) {
  const server = await launchChromiumServer();
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
  }
}
