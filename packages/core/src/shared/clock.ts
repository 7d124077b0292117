/** The current instant; the only source of time for use cases. */
export interface Clock {
  now(): Date;
}
