/**
 * Preloaded into a child `debtkit serve` (`node --import <this file>`) by tests
 * that need the child's clock to stand still, so rate-limit windows cannot end
 * in the middle of a test: `Date` is frozen at `DEBTKIT_TEST_FROZEN_NOW`
 * (milliseconds since the epoch). Timers keep running: the MongoDB driver needs them.
 */
import { mock } from 'node:test';

const now = Number(process.env['DEBTKIT_TEST_FROZEN_NOW']);
if (!Number.isFinite(now)) throw new Error('frozen-clock: DEBTKIT_TEST_FROZEN_NOW must be a number of milliseconds');
mock.timers.enable({ apis: ['Date'], now });
