// The error of a user's mistake in the flags, environment or settings file: the CLI prints it without a stack and exits with code 2.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
