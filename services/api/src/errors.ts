/** Errors the routes throw with their HTTP status and a message that names what is wrong. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const httpError = (statusCode: number, message: string): HttpError =>
  new HttpError(statusCode, message);
