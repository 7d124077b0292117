/**
 * The kernel's money module (DESIGN 7.14): interest arithmetic, a debt's plain
 * terms, and the one engine every projection, recorded payment and sandbox
 * month runs through.
 */
export * from './rates.js';
export * from './terms.js';
export * from './engine.js';
