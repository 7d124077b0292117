/** The content shipped with core, through the `ContentRepository` contract (it is not a store port: no store serves it). */
import { shippedContent } from '../src/content/shipped-content.js';
import { contentRepositoryContract } from '../src/content/content-repository.contract.js';

contentRepositoryContract('shipped content', () => shippedContent);
