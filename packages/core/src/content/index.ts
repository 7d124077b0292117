/** Learning modules and articles: everything of this feature `@debtkit/core` exports (its codecs, ports and use cases), one line in `src/index.ts`. */
export * from './content.js';
export * from './learning-modules.js';
export * from './articles.js';
export * from './shipped-content.js';
export * from './content-repository.js';
export * from './use-cases.js';
export * from './requests.js';
