export * from './webhook-url-guard.js';
export * from './webhook-sender.js';
export * from './webhook-secrets.js';
export * from './delivery-worker.js';
