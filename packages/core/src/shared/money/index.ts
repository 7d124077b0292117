/**
 * The kernel's money module (docs/decisions/payoff-and-outlook.md): interest arithmetic, a debt's plain
 * terms, and the one engine every projection, recorded payment and sandbox
 * month runs through.
 */
export * from './rates.js';
export * from './terms.js';
export * from './engine.js';
