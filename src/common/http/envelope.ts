/** The success envelope of every merchant answer: `{ message, response }`. */
export interface Envelope<T> {
  message: string;
  response: T;
}

export function envelope<T>(message: string, response: T): Envelope<T> {
  return { message, response };
}
