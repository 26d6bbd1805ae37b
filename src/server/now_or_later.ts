/**
 * A value now, or a promise of it. The list's hot path answers in the same turn when the key and
 * the list are cached, with no promise or microtask between the request and its answer, and
 * waits only when it must ask the database.
 */
export type NowOrLater<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is here; else when it settles, as `Promise.then` would. */
export function andThen<T, U>(
  value: NowOrLater<T>,
  next: (value: T) => NowOrLater<U>,
): NowOrLater<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
