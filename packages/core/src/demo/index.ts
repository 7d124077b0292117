/** The demo seed: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './demo-seed.js';
