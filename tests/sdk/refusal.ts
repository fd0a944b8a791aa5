/** What a googleapis call that must fail answered: its HTTP status and the first error's reason (undefined if it
 * succeeded). */
export const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e) => ({ status: e.response.status as number, reason: e.response.data.error.errors[0].reason as string }),
  )
