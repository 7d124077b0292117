/** A startup failure with a message meant for the operator (printed as one line, exit 1). */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
