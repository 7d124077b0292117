export * from './webhook-url-guard.js';
export * from './webhook-sender.js';
export * from './delivery-worker.js';
