/** A template failed to parse; `message` is exactly Go's error text. */
export class TemplateError extends Error {
  override name = 'TemplateError';
}

/** A template failed while executing; `message` is exactly Go's error text. */
export class ExecError extends Error {
  override name = 'ExecError';
  /** What had been written before the error, as Go's writer would have received it. */
  output = '';
  constructor(
    message: string,
    readonly templateName: string,
  ) {
    super(message);
  }
}

/** Thrown by a function to report an error the way a Go func's `error` result does. */
export class FuncError extends Error {
  override name = 'FuncError';
}
